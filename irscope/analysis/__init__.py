"""Facts from captures: layouts, passes, loops, source maps, resources, verify, and the performance model."""
