"""The messages of the engine's errors (bands, grid, model file and metadata, sessions, fp16): key -> English template.

Registered in the plugin's catalogue (:mod:`flair_qgis.core.messages`) when the package is imported;
raised as ``InputError.of(key, **params)``; the French is in ``flair_qgis/i18n/flair_qgis_fr.ts``.
"""

from __future__ import annotations

from ..messages import CATALOGUE, register

MESSAGES = register(
    {
        # bands.py
        "input_band_count": "Model input '{name}' has {channels} channels but its bands select {band_count}.",
        "input_bands_out_of_range": (
            "Model input '{name}' reads band(s) {bad} of {image}, which has {band_count} band(s)."
        ),
        "bands_count_mismatch": (
            "BANDS lists {bands_count} band(s) but the model expects {channels}: give one layer band per "
            "model channel, e.g. BANDS={example}."
        ),
        "choose_channel_bands": "Choose a layer band for model channel(s) {channels}.",
        "bands_out_of_range": (
            "BANDS names band(s) {bad} but the raster has {band_count} band(s) (numbered 1..{band_count})."
        ),
        "bad_bands": "BANDS must be band numbers separated by commas (e.g. 1,2,3), got {text!r}.",
        "bands_start_at_one": "Band numbers start at 1, got {text!r}.",
        # source_stamps.py, bands.py, pixel_sources.py
        "cannot_open_raster": "Cannot open raster {path}: {error}",
        # grid.py
        "rotated_raster": "Rotated rasters are not supported: warp the layer to a north-up grid first.",
        "not_north_up": "The raster's geotransform is not north-up (negative pixel size).",
        "empty_extent": "The extent is empty: draw or choose an area with a width and a height.",
        "extent_outside_raster": (
            "The extent does not intersect the raster layer: pick an area over the imagery (check that the "
            "extent is in the layer's CRS)."
        ),
        "extent_below_pixel": "The extent is smaller than one pixel: choose a larger area.",
        "tile_size_too_small": "Tile size must be at least {minimum} px, got {tile_size_px}.",
        "bad_overlap": "Overlap must be between 0 and {maximum} px for {tile_size_px} px tiles, got {overlap_px}.",
        # half_precision.py
        "bad_precision": "PRECISION must be one of {choices}, got {precision!r}.",
        "fp16_needs_onnx": "PRECISION=fp16 needs the onnx package and onnxruntime's converter ({error}).",
        "fp16_conversion_failed": "The model cannot be converted to fp16: {error}",
        # heads.py
        "no_per_pixel_output": (
            "The model has no per-pixel output (all its outputs give one value per image): it cannot map an "
            "extent. Score it on a dataset with flair:benchmark."
        ),
        "integer_output_channels": (
            "Output '{name}' gives integers on {channels} channels: a model's class indices come one per "
            "pixel, (N, H, W) or (N, 1, H, W); export the model with its scores or a single argmax."
        ),
        "fractional_input_pixels": (
            "TILE_SIZE for input {index} ({name}): {length_px} px at the first input's resolution is "
            "{scaled:g} px at this input's; choose a TILE_SIZE and OVERLAP that give whole pixels for every input."
        ),
        "fixed_tile_size": (
            "The model has a fixed input of {tile_size_px} px: set TILE_SIZE to {tile_size_px} (or leave it empty)."
        ),
        "fixed_input_size": (
            "Input {index} ({name}) has a fixed size of {tile_size_px} px, but TILE_SIZE {tile} gives it "
            "{own} px: set TILE_SIZE to {suggested}."
        ),
        # metadata.py
        "metadata_not_json": "Model metadata key '{metadata_key}' is not valid JSON: {raw!r}",
        "metadata_not_numbers": "Model metadata '{metadata_key}' must be a number or a list of numbers.",
        "metadata_not_number": "Model metadata '{metadata_key}' must hold numbers, got {value!r}.",
        "metadata_count_mismatch": (
            "Model metadata '{metadata_key}' has {value_count} values but the model input has {count} channels."
        ),
        "metadata_bad_class_index": "Model metadata '{metadata_key}' keys must be class indices.",
        "metadata_not_classes": "Model metadata '{metadata_key}' must be a list or an index->name object.",
        "metadata_bad_class_entry": "Model metadata '{metadata_key}' entry {index} is not a class: {entry!r}",
        "bad_class_colour": "Class colour {color!r} in '{metadata_key}' is not of the form #rrggbb.",
        "metadata_duplicate_value": "Model metadata '{metadata_key}' gives the same raster value to two classes.",
        # model.py
        "model_not_found": "Model file not found: {path}",
        "model_not_onnx": "{file} is not a readable ONNX model ({error_type}: {error}).",
        "bad_inputs_metadata": "Model metadata 'inputs' must be a JSON list of objects.",
        "model_without_input": "The model has no input.",
        "bad_input_shape": "Model input '{name}' has shape {shape}; expected (batch, channels, rows, cols).",
        "input_without_channels": "Model input '{name}' has no fixed channel count and the metadata names no bands.",
        "input_band_names_mismatch": (
            "Model input '{name}' has {channels} channels but its metadata names {band_count} bands."
        ),
        "bad_input_std": "Model input '{name}': every std must be positive, got {std}.",
        "input_not_square": "Model input '{name}' is {rows}x{cols}; only square tiles are supported.",
        "bad_outputs_metadata": "Model metadata 'outputs' must be a JSON list of objects.",
        "model_without_output": "The model has no output.",
        "bad_output_task": "Output '{name}': task {task!r} is not one of {choices}.",
        "bad_output_activation": "Output '{name}': activation {activation!r} is not one of {choices}.",
        "output_class_count_mismatch": (
            "Output '{name}' has {channels} channels but its metadata declares {class_count} classes."
        ),
        # multi.py
        "multi_input_single_image": (
            "The model has {input_count} inputs ({names}) but this dataset has one image per sample: use a "
            "single-input model or a FLAIR-HUB folder."
        ),
        "input_without_modality": (
            "Model input '{name}' names no modality: multi-input models must give each input a 'modality' "
            "(AERIAL_RGBI, DEM_ELEV, SPOT_RGBI...) in the 'inputs' metadata."
        ),
        "dataset_lacks_input_modality": (
            "Model input '{name}' needs modality {modality}, which the dataset does not hold (present: {present})."
        ),
        "head_not_segmentation": (
            "Output '{name}' is a {task} head with a per-pixel shape: declare it as 'segmentation' in the "
            "'outputs' metadata."
        ),
        "bad_class_head_shape": "Output '{name}' has shape {shape}; a per-image class head gives (N, classes).",
        "class_head_count_mismatch": "Output '{name}' gives {score_count} scores but declares {class_count} classes.",
        # pixel_sources.py
        "layer_not_a_file": "Layer '{name}' is not a file: it needs a source made by the QGIS adapters.",
        # postprocess.py
        "uncentred_output": (
            "The model returns {rows}x{cols} px for {tile_px} px tiles: only outputs centred on their input "
            "and smaller by an even number of pixels are supported."
        ),
        "overlap_below_margin": (
            "The model returns {rows}x{cols} px for {tile_px} px tiles (it drops {margin} px on each side): "
            "set OVERLAP to at least {minimum} (currently {overlap_px})."
        ),
        # sessions.py
        "bad_device": "DEVICE must be one of {choices}, got {device!r}.",
        "onnxruntime_cannot_load": "onnxruntime cannot load {file}: {error}",
        # wrapped_graph.py: notes of the run log when the graph is not fused (:class:`Note`)
        "graph_not_fused": (
            "Model graph not fused ({reason}): pixels are normalised and the argmax taken on the host, slower."
        ),
        "graph_needs_onnx": (
            "Model graph not fused: the onnx package is not installed. Installed with onnxruntime (the FLAIR "
            "dock's Install button, or pip install onnx into the same folder), it normalises pixels and takes "
            "the argmax in the model's graph: several times faster on a GPU."
        ),
        "graph_no_channel_count": (
            "Model graph not fused for output '{name}' (it has no channel count, even after shape inference): "
            "its argmax runs on the host, slower."
        ),
        # tile_reads.py
        "input_dtype_mismatch": "Input '{name}' was declared {declared} but its source read {read}.",
        # too few bands, fp16 (the dock and Processing word them their own way: i18n/errors.py)
        "too_few_bands": (
            "The model expects {channels} bands but the layer has {band_count}: choose a layer with {channels} "
            "bands or set BANDS to map the layer's bands to the model's."
        ),
        "fp16_cpu": (
            "PRECISION=fp16 runs on CUDA only: this run would use the CPU provider, where half precision is "
            "slower. Set PRECISION to fp32, or DEVICE to cuda on a machine with onnxruntime-gpu."
        ),
        "fp16_agreement": (
            "PRECISION=fp16 agrees with fp32 on {agreement:.2%} of the pixels of the first tiles "
            "(at least {required:.1%} is required): run this model in fp32."
        ),
    },
    words=("the image", "none"),
)


class Note(str):
    """A catalogued line of a run's log: its English text, and the key and parameters with which
    the GUI and Processing show it translated (:func:`flair_qgis.i18n.errors.note_text`).

    It is a ``str``: logs, ``scripts/flair`` and reports take it as it is.
    """

    key: str
    params: dict[str, object]

    @classmethod
    def of(cls, key: str, /, **params: object) -> Note:
        """The note of catalogued message ``key``, its text the template formatted with ``params``."""
        note = cls(CATALOGUE[key].template.format(**params))
        note.key, note.params = key, dict(params)
        return note
