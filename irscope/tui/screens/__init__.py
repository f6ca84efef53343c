"""The TUI's screens: the main browser, the help screen and the small input dialogs."""
