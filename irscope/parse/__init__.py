"""Text to typed facts: MLIR ops, attributes, locations and layouts, pass dumps, SASS and ptxas reports."""
