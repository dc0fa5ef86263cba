"""Class maps to polygons: one polygon per 4-connected region, streamed band by band.

``job.vectorize`` is the one entry point (Processing's ``flair:vectorize``, ``flair:segment``'s
``OUTPUT_VECTOR`` and the dock all call it); ``labels`` numbers regions, ``regions`` joins them
across band seams, ``clean`` merges small regions on the region graph, ``simplify`` simplifies
the coverage with its topology kept, ``writer`` publishes the layer ``predictions``.
"""
