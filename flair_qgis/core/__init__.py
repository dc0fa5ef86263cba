"""Pure-Python core of flair_qgis: numpy, onnxruntime, rasterio, geopandas. No qgis, no Qt."""
