"""Evaluate tab: scores against a reference, suspicious labels, identify and Follow the view."""
