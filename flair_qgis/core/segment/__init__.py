"""Segment: run an ONNX model over a raster extent, tile by tile, into class, confidence and head maps.

Entry points: :func:`plan.plan_segment` decides everything before a pixel is read; :func:`run.run_plan` runs it.
"""
