"""Review: sample items for photo-interpreters, store their verdicts, estimate label errors and map accuracy.

Entry points: :func:`create.create_review`, :class:`store.ReviewStore`, :func:`report.review_report`,
:func:`apply.apply_review_raster`, :func:`apply.apply_review_polygons`.
"""
