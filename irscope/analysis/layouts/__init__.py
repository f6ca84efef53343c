"""Layouts explained: linear layouts, tile-to-warp maps, load and store widths."""
