"""The dock and its map tools: one subpackage per tab, widgets that build a frozen request and nothing else.

``dock`` holds the tabs: :mod:`.segment` (model, inputs, extent, run, result), :mod:`.evaluate`
(scores, suspicious labels, identify, Follow the view) and :mod:`.review` (the label review).
The modules at this level (``widgets``, ``messages``, ``details``, ``highlight``, ``map_tools``,
``crs_offer``) are shared by the tabs. QGIS-layer work lives in :mod:`flair_qgis.adapters`.
"""
