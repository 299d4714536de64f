"""The Bonanza relay: orders moves, owns the turn clock, deals fair dice."""
