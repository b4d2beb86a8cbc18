"""Built-in games, one module each. They are found by name through perfectplay.registry."""
