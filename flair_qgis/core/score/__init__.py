"""Score: compare a class map with a reference (raster or polygons) under a published protocol.

Entry points: :func:`evaluate.score` (metrics, error map), :func:`labels.rank_labels` (suspicious
labels), :func:`report.publish_report`.
"""
