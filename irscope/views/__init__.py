"""Renderers: typed results to text (Pygments lexers and themes, layout maps, reports, diffs, graphs)."""
