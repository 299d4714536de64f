"""Bonanza's pure rules core: no pygame, no sockets, no clock reads, no global randomness."""
