"""Search engines behind one contract (base.py), and what they share: the analyzer and the typed query plan."""
