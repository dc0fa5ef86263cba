"""Processing provider ``flair`` and its algorithms: thin shells over ``flair_qgis.core``."""
