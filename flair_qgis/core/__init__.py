"""Pure-Python core of flair_qgis: numpy, onnxruntime, rasterio, geopandas. No qgis, no Qt.

One subpackage per job, imports pointing down only: ``benchmark`` and ``review`` use ``score``,
``score`` uses ``segment``. The modules at this level (``errors``, ``messages``, ``paths``,
``atomic``, ``crs``, ``nomenclature``, ``vocabulary``, ``areas``, ``classes``, ``cuda``) are shared by
every job and import none of the subpackages.
"""
