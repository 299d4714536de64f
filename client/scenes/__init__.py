"""The client's scenes; each has ``handle(action)``, ``update(dt)`` and ``draw(surface)``."""
