"""Captures on disk: keys, manifests, atomic commits, locks, pass dumps written as they stream, archives."""
