"""Segment tab: model card, input layers and bands, extent, run options and the result line."""
