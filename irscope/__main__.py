"""``python -m irscope``."""

from irscope.cli import main

main()
