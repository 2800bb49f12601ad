"""Search index backends behind one interface, and the analyzer they all share."""
