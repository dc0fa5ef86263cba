<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>@default</name>
    <message>
        <location filename="../gui/crs_offer.py" line="65" />
        <source>'{name}' has an engineering CRS named Lambert-93 without an EPSG code: QGIS cannot place it on the map.</source>
        <translation>« {name} » a un système de coordonnées local nommé Lambert-93, sans code EPSG : QGIS ne peut pas le placer sur la carte.</translation>
    </message>
    <message>
        <location filename="../gui/crs_offer.py" line="70" />
        <source>Treat as EPSG:2154</source>
        <translation>Traiter comme EPSG:2154</translation>
    </message>
    <message>
        <location filename="../gui/crs_offer.py" line="72" />
        <source>Sets the layer's CRS in this project only; the file is not modified.</source>
        <translation>Change le SCR de la couche dans ce projet seulement ; le fichier n'est pas modifié.</translation>
    </message>
    <message>
        <location filename="../gui/crs_offer.py" line="92" />
        <source>'{name}' is now in EPSG:2154 (RGF93 v1 / Lambert-93) in this project; its file is unchanged.</source>
        <translation>« {name} » est maintenant en EPSG:2154 (RGF93 v1 / Lambert-93) dans ce projet ; son fichier est inchangé.</translation>
    </message>
    <message>
        <location filename="../plugin.py" line="100" />
        <source>FLAIR segmentation</source>
        <translation>Segmentation FLAIR</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="87" />
        <source>Segment</source>
        <translation>Segmenter</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="88" />
        <source>Evaluate</source>
        <translation>Évaluer</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_suspicious.py" line="56" />
        <source>Model</source>
        <translation>Modèle</translation>
    </message>
    <message>
        <location filename="../gui/segment/model_section.py" line="30" />
        <source>Recently used models</source>
        <translation>Modèles utilisés récemment</translation>
    </message>
    <message>
        <location filename="../gui/segment/model_section.py" line="34" />
        <source>Choose an ONNX model file</source>
        <translation>Choisir un fichier de modèle ONNX</translation>
    </message>
    <message>
        <location filename="../gui/segment/inputs_section.py" line="25" />
        <source>Input</source>
        <translation>Entrée</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="97" />
        <source>Extent</source>
        <translation>Emprise</translation>
    </message>
    <message>
        <location filename="../gui/segment/extent_section.py" line="32" />
        <source>Current map view</source>
        <translation>Vue courante de la carte</translation>
    </message>
    <message>
        <location filename="../gui/segment/extent_section.py" line="32" />
        <source>Layer extent</source>
        <translation>Emprise de la couche</translation>
    </message>
    <message>
        <location filename="../gui/segment/extent_section.py" line="32" />
        <source>Selected polygons (masked outside)</source>
        <translation>Polygones sélectionnés (masqué en dehors)</translation>
    </message>
    <message>
        <location filename="../gui/segment/extent_section.py" line="32" />
        <source>Rectangle drawn on the map</source>
        <translation>Rectangle tracé sur la carte</translation>
    </message>
    <message>
        <location filename="../gui/segment/extent_section.py" line="43" />
        <source>Area</source>
        <translation>Zone</translation>
    </message>
    <message>
        <location filename="../gui/segment/extent_section.py" line="46" />
        <source>Polygons</source>
        <translation>Polygones</translation>
    </message>
    <message>
        <location filename="../gui/segment/extent_section.py" line="48" />
        <source>Draw rectangle</source>
        <translation>Tracer un rectangle</translation>
    </message>
    <message>
        <location filename="../gui/segment/extent_section.py" line="51" />
        <source>No rectangle drawn yet.</source>
        <translation>Aucun rectangle tracé pour l'instant.</translation>
    </message>
    <message>
        <location filename="../gui/segment/run_section.py" line="51" />
        <source>Run</source>
        <translation>Lancer</translation>
    </message>
    <message>
        <location filename="../gui/segment/run_section.py" line="31" />
        <source>Auto (CUDA when available)</source>
        <translation>Auto (CUDA si disponible)</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="134" />
        <source>Device</source>
        <translation>Processeur</translation>
    </message>
    <message>
        <location filename="../gui/segment/run_section.py" line="41" />
        <source>[new file in flair_outputs]</source>
        <translation>[nouveau fichier dans flair_outputs]</translation>
    </message>
    <message>
        <location filename="../gui/segment/run_section.py" line="45" />
        <source>Empty: a new file in flair_outputs beside the saved project, or in the plugin's folder of the QGIS profile while the project is unsaved (never in a temporary folder QGIS deletes)</source>
        <translation>Vide : un nouveau fichier dans flair_outputs à côté du projet enregistré, ou dans le dossier de l'extension du profil QGIS tant que le projet n'est pas enregistré (jamais dans un dossier temporaire que QGIS supprime)</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="147" />
        <source>Class map</source>
        <translation>Carte des classes</translation>
    </message>
    <message>
        <location filename="../gui/segment/run_section.py" line="69" />
        <source>Advanced</source>
        <translation>Avancé</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="146" />
        <source>{label}:</source>
        <translation>{label} :</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="113" />
        <source>Tile size</source>
        <translation>Taille des tuiles</translation>
    </message>
    <message>
        <location filename="../gui/segment/run_section.py" line="83" />
        <source>Overlap</source>
        <translation>Recouvrement</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="125" />
        <source>Tiles per batch</source>
        <translation>Tuiles par lot</translation>
    </message>
    <message>
        <location filename="../gui/segment/run_section.py" line="85" />
        <source>Model defaults</source>
        <translation>Valeurs du modèle</translation>
    </message>
    <message>
        <location filename="../gui/segment/run_section.py" line="52" />
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
    <message>
        <location filename="../gui/segment/result_section.py" line="20" />
        <source>Result</source>
        <translation>Résultat</translation>
    </message>
    <message>
        <location filename="../gui/segment/result_section.py" line="28" />
        <source>Opacity</source>
        <translation>Opacité</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="166" />
        <source>Install {package}</source>
        <translation>Installer {package}</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="162" />
        <source>Install {package} with pip into
{target}
(used only by this plugin)?</source>
        <translation>Installer {package} avec pip dans
{target}
(utilisé uniquement par cette extension) ?</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="178" />
        <source>onnxruntime {version} installed: the plugin is ready.</source>
        <translation>onnxruntime {version} installé : l'extension est prête.</translation>
    </message>
    <message>
        <location filename="../gui/segment/model_section.py" line="45" />
        <source>Choose an ONNX model</source>
        <translation>Choisir un modèle ONNX</translation>
    </message>
    <message>
        <location filename="../gui/segment/model_section.py" line="45" />
        <source>ONNX models (*.onnx)</source>
        <translation>Modèles ONNX (*.onnx)</translation>
    </message>
    <message>
        <location filename="../gui/segment/segment_panel.py" line="67" />
        <source>Install onnxruntime to read models (see above).</source>
        <translation>Installez onnxruntime pour lire les modèles (voir ci-dessus).</translation>
    </message>
    <message>
        <location filename="../gui/segment/segment_panel.py" line="103" />
        <source>CUDA is not available in this onnxruntime: the run will use the CPU.</source>
        <translation>CUDA n'est pas disponible dans cet onnxruntime : le traitement utilisera le CPU.</translation>
    </message>
    <message>
        <location filename="../gui/segment/extent_section.py" line="88" />
        <source>{w:.0f} × {h:.0f} map units</source>
        <translation>{w:.0f} × {h:.0f} unités de carte</translation>
    </message>
    <message>
        <location filename="../gui/segment/segment_panel.py" line="113" />
        <source>onnxruntime is not installed (see above).</source>
        <translation>onnxruntime n'est pas installé (voir ci-dessus).</translation>
    </message>
    <message>
        <location filename="../gui/segment/segment_panel.py" line="150" />
        <source>CUDA is not available: running on the CPU.</source>
        <translation>CUDA n'est pas disponible : traitement sur le CPU.</translation>
    </message>
    <message>
        <location filename="../gui/segment/segment_panel.py" line="155" />
        <source>Running on {w} × {h} px ({km2:.3f} km²)…</source>
        <translation>Traitement de {w} × {h} px ({km2:.3f} km²)…</translation>
    </message>
    <message>
        <location filename="../gui/segment/segment_panel.py" line="171" />
        <source>The layer '{name}' was removed from the project: the run was stopped.</source>
        <translation>La couche « {name} » a été retirée du projet : le traitement a été arrêté.</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="280" />
        <source>{provider} ran {tiles} tile(s) in {s:.1f} s ({rate:.2f} km²/h).</source>
        <translation>{provider} a traité {tiles} tuile(s) en {s:.1f} s ({rate:.2f} km²/h).</translation>
    </message>
    <message>
        <location filename="../gui/segment/segment_panel.py" line="186" />
        <source>The run was stopped.</source>
        <translation>Le traitement a été arrêté.</translation>
    </message>
    <message>
        <location filename="../i18n/removed.py" line="25" />
        <source>Canceled: nothing had been written.</source>
        <translation>Annulé : rien n'avait été écrit.</translation>
    </message>
    <message>
        <location filename="../i18n/removed.py" line="27" />
        <source>Canceled: removed what the run had written ({files}).</source>
        <translation>Annulé : ce que le traitement avait écrit a été supprimé ({files}).</translation>
    </message>
    <message>
        <location filename="../i18n/removed.py" line="36" />
        <source>Removed what the run had written: {files}.</source>
        <translation>Ce que le traitement avait écrit a été supprimé : {files}.</translation>
    </message>
    <message>
        <location filename="../gui/segment/segment_panel.py" line="196" />
        <source>The run failed (see the FLAIR log).</source>
        <translation>Le traitement a échoué (voir le journal FLAIR).</translation>
    </message>
    <message>
        <location filename="../gui/segment/result_section.py" line="53" />
        <source>Per-image output '{name}' over {n} tiles: mean {mean:.4g}, min {lo:.4g}, max {hi:.4g} ({path}).</source>
        <translation>Sortie par image « {name} » sur {n} tuiles : moyenne {mean:.4g}, min {lo:.4g}, max {hi:.4g} ({path}).</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="201" />
        <source>Unexpected error: {error}. Details are in the log (View ▸ Panels ▸ Log Messages, tab FLAIR).</source>
        <translation>Erreur inattendue : {error}. Le détail est dans le journal (Vue ▸ Panneaux ▸ Journal des messages, onglet FLAIR).</translation>
    </message>
    <message>
        <location filename="../gui/segment/segment_panel.py" line="220" />
        <source>The plugin was unloaded.</source>
        <translation>L'extension a été déchargée.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_layers.py" line="21" />
        <source>Layers</source>
        <translation>Couches</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="154" />
        <source>Confidence</source>
        <translation>Confiance</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_layers.py" line="36" />
        <source>Reference</source>
        <translation>Référence</translation>
    </message>
    <message>
        <location filename="../processing/rank_labels_algorithm.py" line="69" />
        <source>Class field</source>
        <translation>Champ de classe</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="87" />
        <source>Protocol</source>
        <translation>Protocole</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_identify.py" line="24" />
        <source>Identify</source>
        <translation>Identifier</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_identify.py" line="30" />
        <source>Identify pixel</source>
        <translation>Identifier un pixel</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_identify.py" line="33" />
        <source>Click the map to see the predicted and reference classes of a pixel.</source>
        <translation>Cliquez sur la carte pour voir la classe prédite et la classe de référence d'un pixel.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="34" />
        <source>Score</source>
        <translation>Score</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="99" />
        <source>Error map</source>
        <translation>Carte des erreurs</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_suspicious.py" line="96" />
        <source>Suspicious labels</source>
        <translation>Étiquettes suspectes</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="39" />
        <source>Polygon references only: polygons ranked by disagreement with the model</source>
        <translation>Références polygones seulement : polygones classés selon leur désaccord avec le modèle</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="43" />
        <source>Score this view</source>
        <translation>Évaluer cette vue</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="45" />
        <source>Pick a class map and a reference, then score the map view.</source>
        <translation>Choisissez une carte des classes et une référence, puis évaluez la vue de la carte.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="110" />
        <source>IoU</source>
        <translation>IoU</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="110" />
        <source>Support</source>
        <translation>Effectif</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_suspicious.py" line="56" />
        <source>Rank</source>
        <translation>Rang</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_suspicious.py" line="56" />
        <source>Label</source>
        <translation>Étiquette</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_suspicious.py" line="56" />
        <source>Agreement</source>
        <translation>Accord</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="155" />
        <source>Suspicion</source>
        <translation>Suspicion</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_panel.py" line="99" />
        <source>Scoring…</source>
        <translation>Évaluation…</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_panel.py" line="145" />
        <source>Scoring failed (see the FLAIR log).</source>
        <translation>L'évaluation a échoué (voir le journal FLAIR).</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="87" />
        <source>mIoU {miou} — OA {oa} — {n} pixels ({protocol})</source>
        <translation>mIoU {miou} — OA {oa} — {n} pixels ({protocol})</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_panel.py" line="173" />
        <source>Export report</source>
        <translation>Exporter le rapport</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_panel.py" line="173" />
        <source>JSON report (*.json)</source>
        <translation>Rapport JSON (*.json)</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_panel.py" line="195" />
        <source>Report written to {path}</source>
        <translation>Rapport écrit dans {path}</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="46" />
        <source>Value</source>
        <translation>Valeur</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="46" />
        <source>Class</source>
        <translation>Classe</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="88" />
        <source>No model chosen.</source>
        <translation>Aucun modèle choisi.</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="95" />
        <source>not declared (layer's own)</source>
        <translation>non déclarée (celle de la couche)</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="96" />
        <source> (fixed)</source>
        <translation> (fixe)</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="100" />
        <source>layer's resolution</source>
        <translation>résolution de la couche</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="150" />
        <source>Install onnxruntime</source>
        <translation>Installer onnxruntime</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="155" />
        <source>Or run this command, then restart QGIS:</source>
        <translation>Ou lancez cette commande, puis redémarrez QGIS :</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="161" />
        <source>The FLAIR plugin needs &lt;b&gt;{package}&lt;/b&gt; to run models; it is not available in this QGIS ({reason}).</source>
        <translation>L'extension FLAIR a besoin de &lt;b&gt;{package}&lt;/b&gt; pour exécuter les modèles ; il n'est pas disponible dans ce QGIS ({reason}).</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="176" />
        <source>{name} (1 band)</source>
        <translation>{name} (1 bande)</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="177" />
        <source>{name} ({n} bands)</source>
        <translation>{name} ({n} bandes)</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="183" />
        <source>{n} classes</source>
        <translation>{n} classes</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="185" />
        <source>value</source>
        <translation>valeur</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="186" />
        <source>per pixel</source>
        <translation>par pixel</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="186" />
        <source>per image</source>
        <translation>par image</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="235" />
        <source>Raster layer</source>
        <translation>Couche raster</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="215" />
        <source>Bands</source>
        <translation>Bandes</translation>
    </message>
    <message>
        <location filename="../plugin.py" line="56" />
        <source>Segment imagery with an ONNX model and score it (FLAIR)</source>
        <translation>Segmenter l'imagerie avec un modèle ONNX et l'évaluer (FLAIR)</translation>
    </message>
    <message>
        <location filename="../adapters/deps.py" line="155" />
        <source>On Windows, install them with QGIS&apos;s own installer, which builds them against QGIS&apos;s GDAL (as administrator, then restart QGIS):
{command}
A rasterio wheel from pip carries its own GDAL DLLs, which can clash with QGIS&apos;s.</source>
        <translation>Sous Windows, installez-les avec l&apos;installateur de QGIS, qui les compile avec le GDAL de QGIS (en administrateur, puis redémarrez QGIS) :
{command}
Une roue rasterio installée par pip apporte ses propres DLL GDAL, qui peuvent entrer en conflit avec celles de QGIS.</translation>
    </message>
    <message>
        <location filename="../adapters/deps.py" line="161" />
        <source>On macOS nothing is installed inside QGIS.app (that would break its code signature): pip installs into your QGIS profile folder, and the wheels of rasterio and geopandas bring their own GDAL and GEOS.</source>
        <translation>Sous macOS, rien n&apos;est installé dans QGIS.app (cela casserait sa signature) : pip installe dans le dossier de votre profil QGIS, et les roues de rasterio et geopandas apportent leurs propres GDAL et GEOS.</translation>
    </message>
    <message>
        <location filename="../adapters/deps.py" line="167" />
        <source>On Debian or Ubuntu, the system packages fit QGIS best: {command}</source>
        <translation>Sous Debian ou Ubuntu, les paquets du système conviennent le mieux à QGIS : {command}</translation>
    </message>
    <message>
        <location filename="../plugin.py" line="66" />
        <source>needs the Python package(s) {names}, which this QGIS does not have: click the FLAIR button to install them, or run: {command}</source>
        <translation>a besoin du ou des paquets Python {names}, absents de ce QGIS : cliquez sur le bouton FLAIR pour les installer, ou lancez : {command}</translation>
    </message>
    <message>
        <location filename="../plugin.py" line="100" />
        <source>FLAIR needs the Python package(s) {names}, which this QGIS does not have.

{advice}

Install them now with pip into {folder}?

To do it yourself, run:
{command}</source>
        <translation>FLAIR a besoin du ou des paquets Python {names}, absents de ce QGIS.

{advice}

Les installer maintenant avec pip dans {folder} ?

Pour le faire vous-même, lancez :
{command}</translation>
    </message>
    <message>
        <location filename="../plugin.py" line="116" />
        <source>Installed {names}: restart QGIS to use FLAIR.</source>
        <translation>{names} installé(s) : redémarrez QGIS pour utiliser FLAIR.</translation>
    </message>
    <message>
        <location filename="../processing/benchmark_algorithm.py" line="55" />
        <source>Benchmark model on a dataset folder</source>
        <translation>Évaluer un modèle sur un dossier de jeu de données</translation>
    </message>
    <message>
        <location filename="../processing/benchmark_algorithm.py" line="58" />
        <source>Runs an ONNX model on every sample of a benchmark folder and scores it with the published protocol, streaming (memory does not grow with the dataset).

Layouts: FLAIR #1 (IGN's D0xx_YYYY/Zn_XX/img/IMG_&lt;id&gt;.tif with msk/MSK_&lt;id&gt;.tif, or any folder where IMG_&lt;id&gt;.tif and MSK_&lt;id&gt;.tif pair by id); FLAIR-HUB (per-modality files named as in IGN's index, e.g. D012-2019_AERIAL_RGBI_AF-S1-27_5-10.tif with ..._AERIAL_LABEL-COSIA_... or ..._ALL_LABEL-LPIS_...); WeedSense (images/, masks/, labels.csv).

Multi-input models (metadata 'inputs' with a 'modality' per input) read each modality's file; band selection and normalisation come from the model metadata. Multi-task models (metadata 'outputs') are scored per head: WeedSense height (MAE, RMSE, R², within 1/2/5 cm) and growth stage (accuracy, F1).

Writes the report JSON (mIoU, OA, per-class IoU, confusion matrix, protocol metrics), a per-sample CSV (worst samples first to open in QGIS: sort by miou) and, with OUTPUT_PREDICTIONS, one PRED_&lt;id&gt;.tif per sample (FLAIR #1: IGN's submission format, uint8 class index 0..12). ON_UNPAIRED decides whether images without masks (and masks without images) are skipped (listed in the log and the report) or stop the run.</source>
        <translation>Exécute un modèle ONNX sur chaque échantillon d'un dossier de référence et l'évalue avec le protocole publié, en flux (la mémoire ne croît pas avec le jeu de données).

Organisations : FLAIR #1 (D0xx_YYYY/Zn_XX/img/IMG_&lt;id&gt;.tif de l'IGN avec msk/MSK_&lt;id&gt;.tif, ou tout dossier où IMG_&lt;id&gt;.tif et MSK_&lt;id&gt;.tif s'apparient par identifiant) ; FLAIR-HUB (un fichier par modalité, nommé comme dans l'index de l'IGN, par ex. D012-2019_AERIAL_RGBI_AF-S1-27_5-10.tif avec ..._AERIAL_LABEL-COSIA_... ou ..._ALL_LABEL-LPIS_...) ; WeedSense (images/, masks/, labels.csv).

Les modèles à plusieurs entrées (métadonnée « inputs » avec une « modality » par entrée) lisent le fichier de chaque modalité ; le choix des bandes et la normalisation viennent des métadonnées du modèle. Les modèles multitâches (métadonnée « outputs ») sont évalués par tête : hauteur WeedSense (MAE, RMSE, R², à 1/2/5 cm près) et stade de croissance (exactitude, F1).

Écrit le rapport JSON (mIoU, OA, IoU par classe, matrice de confusion, métriques du protocole), un CSV par échantillon (les pires d'abord, à ouvrir dans QGIS : trier par miou) et, avec OUTPUT_PREDICTIONS, un PRED_&lt;id&gt;.tif par échantillon (FLAIR #1 : format de soumission de l'IGN, indice de classe uint8 0..12). ON_UNPAIRED décide si les images sans masque (et les masques sans image) sont ignorées (listées dans le journal et le rapport) ou arrêtent le traitement.</translation>
    </message>
    <message>
        <location filename="../processing/benchmark_algorithm.py" line="77" />
        <source>Dataset folder</source>
        <translation>Dossier du jeu de données</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="96" />
        <source>ONNX model</source>
        <translation>Modèle ONNX</translation>
    </message>
    <message>
        <location filename="../processing/review_report_algorithm.py" line="44" />
        <source>Report (JSON)</source>
        <translation>Rapport (JSON)</translation>
    </message>
    <message>
        <location filename="../processing/benchmark_algorithm.py" line="95" />
        <source>Prediction rasters (PRED_&lt;id&gt;.tif)</source>
        <translation>Rasters de prédiction (PRED_&lt;id&gt;.tif)</translation>
    </message>
    <message>
        <location filename="../processing/benchmark_algorithm.py" line="100" />
        <source>Device: auto, cuda or cpu</source>
        <translation>Processeur : auto, cuda ou cpu</translation>
    </message>
    <message>
        <location filename="../processing/benchmark_algorithm.py" line="103" />
        <source>Samples per batch</source>
        <translation>Échantillons par lot</translation>
    </message>
    <message>
        <location filename="../processing/benchmark_algorithm.py" line="108" />
        <source>Images without masks / masks without images</source>
        <translation>Images sans masque / masques sans image</translation>
    </message>
    <message>
        <location filename="../processing/benchmark_algorithm.py" line="118" />
        <source>Dataset layout</source>
        <translation>Organisation du jeu de données</translation>
    </message>
    <message>
        <location filename="../processing/benchmark_algorithm.py" line="125" />
        <source>Score of a class absent from both sides (protocol = the protocol's own)</source>
        <translation>Score d'une classe absente des deux côtés (protocol = celui du protocole)</translation>
    </message>
    <message>
        <location filename="../processing/benchmark_algorithm.py" line="132" />
        <source>Per-sample CSV (default: next to the report)</source>
        <translation>CSV par échantillon (par défaut : à côté du rapport)</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="129" />
        <source>mIoU (0..1)</source>
        <translation>mIoU (0..1)</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="130" />
        <source>Overall accuracy (0..1)</source>
        <translation>Précision globale (0..1)</translation>
    </message>
    <message>
        <location filename="../processing/benchmark_algorithm.py" line="146" />
        <source>Samples scored</source>
        <translation>Échantillons évalués</translation>
    </message>
    <message>
        <location filename="../processing/benchmark_algorithm.py" line="147" />
        <source>Samples that could not be read</source>
        <translation>Échantillons illisibles</translation>
    </message>
    <message>
        <location filename="../processing/benchmark_algorithm.py" line="148" />
        <source>Samples per second</source>
        <translation>Échantillons par seconde</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="163" />
        <source>Execution provider that ran</source>
        <translation>Fournisseur d'exécution utilisé</translation>
    </message>
    <message>
        <location filename="../processing/benchmark_algorithm.py" line="150" />
        <source>Per-sample CSV</source>
        <translation>CSV par échantillon</translation>
    </message>
    <message>
        <location filename="../processing/benchmark_algorithm.py" line="151" />
        <source>Prediction folder</source>
        <translation>Dossier des prédictions</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="228" />
        <source>DEVICE must be auto, cuda or cpu, got '{}'.</source>
        <translation>DEVICE doit valoir auto, cuda ou cpu, reçu « {} ».</translation>
    </message>
    <message>
        <location filename="../processing/benchmark_algorithm.py" line="220" />
        <source>Sample {id} failed: {path}: {error}</source>
        <translation>L'échantillon {id} a échoué : {path} : {error}</translation>
    </message>
    <message>
        <location filename="../processing/benchmark_algorithm.py" line="226" />
        <source>{provider} scored {n} sample(s) ({failed} failed) in {s:.1f} s ({rate:.2f} samples/s).</source>
        <translation>{provider} a évalué {n} échantillon(s) ({failed} en échec) en {s:.1f} s ({rate:.2f} échantillons/s).</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="58" />
        <source>Evaluate class map against reference</source>
        <translation>Évaluer une carte des classes par rapport à une référence</translation>
    </message>
    <message>
        <location filename="../processing/sample_algorithm.py" line="60" />
        <source>Prediction (class map)</source>
        <translation>Prédiction (carte des classes)</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="78" />
        <source>Reference (raster mask or polygons)</source>
        <translation>Référence (masque raster ou polygones)</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="79" />
        <source>Class field (polygon reference)</source>
        <translation>Champ de classe (référence polygones)</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="92" />
        <source>Values never counted (e.g. 0,255)</source>
        <translation>Valeurs jamais comptées (par ex. 0,255)</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="95" />
        <source>Score only this area</source>
        <translation>Évaluer seulement cette zone</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="105" />
        <source>Regroup values, custom protocol (e.g. 13-19:13)</source>
        <translation>Regrouper des valeurs, protocole custom (par ex. 13-19:13)</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="108" />
        <source>Classes averaged into mIoU (e.g. 1-12; empty = all)</source>
        <translation>Classes moyennées dans le mIoU (par ex. 1-12 ; vide = toutes)</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="111" />
        <source>Classes of a custom protocol (empty = the values found)</source>
        <translation>Classes d'un protocole custom (vide = les valeurs trouvées)</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="114" />
        <source>A class absent from both sides counts as</source>
        <translation>Une classe absente des deux côtés compte pour</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="121" />
        <source>Drop pixels of non-evaluated classes (custom protocol)</source>
        <translation>Écarter les pixels des classes non évaluées (protocole custom)</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="131" />
        <source>Pixels evaluated</source>
        <translation>Pixels évalués</translation>
    </message>
    <message>
        <location filename="../processing/review_report_algorithm.py" line="47" />
        <source>Per-class CSV</source>
        <translation>CSV par classe</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="133" />
        <source>Confusion matrix PNG</source>
        <translation>PNG de la matrice de confusion</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="210" />
        <source>The extent is empty: choose an area with a width and a height.</source>
        <translation>L'emprise est vide : choisissez une zone avec une largeur et une hauteur.</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="226" />
        <source>{protocol}: mIoU {miou} OA {oa} over {px} px (absent classes: {absent}).</source>
        <translation>{protocol} : mIoU {miou} OA {oa} sur {px} px (classes absentes : {absent}).</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="239" />
        <source>No evaluated class is present on either side: mIoU is undefined.</source>
        <translation>Aucune classe évaluée n'est présente d'un côté ou de l'autre : le mIoU n'est pas défini.</translation>
    </message>
    <message>
        <location filename="../processing/rank_labels_algorithm.py" line="48" />
        <source>Rank suspicious labels</source>
        <translation>Classer les étiquettes suspectes</translation>
    </message>
    <message>
        <location filename="../processing/rank_labels_algorithm.py" line="64" />
        <source>Reference polygons</source>
        <translation>Polygones de référence</translation>
    </message>
    <message>
        <location filename="../processing/sample_algorithm.py" line="72" />
        <source>Confidence raster</source>
        <translation>Raster de confiance</translation>
    </message>
    <message>
        <location filename="../processing/rank_labels_algorithm.py" line="75" />
        <source>Protocol (value regrouping)</source>
        <translation>Protocole (regroupement des valeurs)</translation>
    </message>
    <message>
        <location filename="../processing/rank_labels_algorithm.py" line="84" />
        <source>Values never counted</source>
        <translation>Valeurs jamais comptées</translation>
    </message>
    <message>
        <location filename="../processing/rank_labels_algorithm.py" line="85" />
        <source>Regroup values (e.g. 13-19:13)</source>
        <translation>Regrouper des valeurs (par ex. 13-19:13)</translation>
    </message>
    <message>
        <location filename="../processing/sample_algorithm.py" line="73" />
        <source>Only this area</source>
        <translation>Seulement cette zone</translation>
    </message>
    <message>
        <location filename="../processing/rank_labels_algorithm.py" line="87" />
        <source>Ranked labels</source>
        <translation>Étiquettes classées</translation>
    </message>
    <message>
        <location filename="../processing/rank_labels_algorithm.py" line="91" />
        <source>Polygons ranked</source>
        <translation>Polygones classés</translation>
    </message>
    <message>
        <location filename="../processing/rank_labels_algorithm.py" line="92" />
        <source>Polygons whose majority class differs from the label</source>
        <translation>Polygones dont la classe majoritaire diffère de l'étiquette</translation>
    </message>
    <message>
        <location filename="../processing/rank_labels_algorithm.py" line="105" />
        <source>REFERENCE is not a polygon layer QGIS can open.</source>
        <translation>REFERENCE n'est pas une couche de polygones que QGIS peut ouvrir.</translation>
    </message>
    <message>
        <location filename="../processing/rank_labels_algorithm.py" line="150" />
        <source>{n} polygons ranked; the model's majority class differs from the label on {d}.</source>
        <translation>{n} polygones classés ; la classe majoritaire du modèle diffère de l'étiquette sur {d}.</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="67" />
        <source>Segment raster with ONNX model</source>
        <translation>Segmenter un raster avec un modèle ONNX</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="95" />
        <source>Input raster</source>
        <translation>Raster en entrée</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="106" />
        <source>Layer bands for the model's channels (e.g. 1,2,3)</source>
        <translation>Bandes de la couche pour les canaux du modèle (par ex. 1,2,3)</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="112" />
        <source>Raster for model input {}</source>
        <translation>Raster pour l'entrée {} du modèle</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="117" />
        <source>Bands for model input {}</source>
        <translation>Bandes pour l'entrée {} du modèle</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="125" />
        <source>Tile size (px, empty = model's)</source>
        <translation>Taille des tuiles (px, vide = celle du modèle)</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="125" />
        <source>Overlap between tiles (px, empty = model's)</source>
        <translation>Recouvrement entre tuiles (px, vide = celui du modèle)</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="148" />
        <source>Confidence (probability of the winning class)</source>
        <translation>Confiance (probabilité de la classe retenue)</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="164" />
        <source>Tiles processed</source>
        <translation>Tuiles traitées</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="166" />
        <source>Run time (s)</source>
        <translation>Durée du traitement (s)</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="167" />
        <source>Per-tile values of per-image heads (CSV)</source>
        <translation>Valeurs par tuile des têtes par image (CSV)</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="243" />
        <source>The model has {} inputs; flair:segment feeds at most {}.</source>
        <translation>Le modèle a {} entrées ; flair:segment en alimente au plus {}.</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="255" />
        <source>The model has {n} inputs: give a raster layer for each ({wanted}); {key} is missing.</source>
        <translation>Le modèle a {n} entrées : donnez une couche raster pour chacune ({wanted}) ; {key} manque.</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="270" />
        <source>Segmenting {w} x {h} px ({km2:.3f} km²) at {res:g} m with {model}.</source>
        <translation>Segmentation de {w} x {h} px ({km2:.3f} km²) à {res:g} m avec {model}.</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="295" />
        <source>Output '{name}' written to {path}</source>
        <translation>Sortie « {name} » écrite dans {path}</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="298" />
        <source>Per-image output '{name}': {n} tiles, mean {mean:.4g}, min {lo:.4g}, max {hi:.4g} ({path}).</source>
        <translation>Sortie par image « {name} » : {n} tuiles, moyenne {mean:.4g}, min {lo:.4g}, max {hi:.4g} ({path}).</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="98" />
        <source>Inputs</source>
        <translation>Entrées</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="105" />
        <source>Input bands</source>
        <translation>Bandes en entrée</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="106" />
        <source>Resolution</source>
        <translation>Résolution</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="114" />
        <source>Classes</source>
        <translation>Classes</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="115" />
        <source>Runs on</source>
        <translation>S'exécute sur</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="118" />
        <source>Outputs</source>
        <translation>Sorties</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="108" />
        <source>{size} px{fixed}, overlap {overlap} px</source>
        <translation>{size} px{fixed}, recouvrement {overlap} px</translation>
    </message>
    <message>
        <location filename="../adapters/overlay_styles.py" line="63" />
        <source>not evaluated</source>
        <translation>non évalué</translation>
    </message>
    <message>
        <location filename="../adapters/overlay_styles.py" line="63" />
        <source>correct</source>
        <translation>correct</translation>
    </message>
    <message>
        <location filename="../adapters/overlay_styles.py" line="63" />
        <source>missed: {name} ({value})</source>
        <translation>manqué : {name} ({value})</translation>
    </message>
    <message>
        <location filename="../adapters/segment_task.py" line="114" />
        <source>confidence</source>
        <translation>confiance</translation>
    </message>
    <message>
        <location filename="../adapters/evaluate_task.py" line="199" />
        <source>{name} — scored {time}</source>
        <translation>{name} — évalué à {time}</translation>
    </message>
    <message>
        <location filename="../adapters/evaluate_task.py" line="201" />
        <source>Errors (reference class missed)</source>
        <translation>Erreurs (classe de référence manquée)</translation>
    </message>
    <message>
        <location filename="../gui/messages.py" line="13" />
        <source>the GPU (CUDA)</source>
        <translation>le GPU (CUDA)</translation>
    </message>
    <message>
        <location filename="../gui/messages.py" line="15" />
        <source>the CPU</source>
        <translation>le CPU</translation>
    </message>
    <message>
        <location filename="../gui/messages.py" line="43" />
        <source>Predicted: {pred} — reference: {ref}</source>
        <translation>Prédit : {pred} — référence : {ref}</translation>
    </message>
    <message>
        <location filename="../gui/messages.py" line="45" />
        <source>Predicted: {pred} (confidence {conf}) — reference: {ref}</source>
        <translation>Prédit : {pred} (confiance {conf}) — référence : {ref}</translation>
    </message>
    <message>
        <location filename="../gui/segment/model_list.py" line="27" />
        <source>Demo model (FLAIR, 6 patches — low accuracy)</source>
        <translation>Modèle de démonstration (FLAIR, 6 patchs — peu précis)</translation>
    </message>
    <message>
        <location filename="../i18n/model_texts.py" line="27" />
        <source>FLAIR demo U-Net (6 patches)</source>
        <translation>U-Net de démonstration FLAIR (6 patchs)</translation>
    </message>
    <message>
        <location filename="../i18n/model_texts.py" line="29" />
        <source>Tiny demonstration U-Net (ResNet-18 encoder, 16 channels wide) trained from scratch in 6 minutes on CPU on 6 real FLAIR #1 patches (000473, 002115, 034217, 036294, 050549, 087873). Not a production model: it shows the FLAIR #1 input and output conventions, its accuracy is low (see resources/models/MODEL_CARD.md).</source>
        <translation>Petit U-Net de démonstration (encodeur ResNet-18, 16 canaux de large), entraîné à partir de zéro en 6 minutes sur CPU sur 6 patchs FLAIR #1 réels (000473, 002115, 034217, 036294, 050549, 087873). Ce n'est pas un modèle de production : il montre les conventions d'entrée et de sortie de FLAIR #1 ; sa précision est faible (voir resources/models/MODEL_CARD.md).</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="98" />
        <source>Mask polygons (nodata outside)</source>
        <translation>Polygones de masque (sans donnée en dehors)</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="221" />
        <source>MASK cannot be read: choose a polygon layer.</source>
        <translation>MASK est illisible : choisissez une couche de polygones.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/follow_view.py" line="45" />
        <source>Choose a model to follow the view.</source>
        <translation>Choisissez un modèle pour suivre la vue.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/follow_view.py" line="48" />
        <source>Follow the view shows class maps: this model has no segmentation output.</source>
        <translation>Suivre la vue montre des cartes des classes : ce modèle n'a pas de sortie de segmentation.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/follow_view.py" line="92" />
        <source>Follow the view</source>
        <translation>Suivre la vue</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/follow_view.py" line="0" />
        <source>Cache web layers</source>
        <translation>Web en cache</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/follow_view.py" line="0" />
        <source>Also keep the tiles of web and database layers (XYZ, WMS, WMTS, PostGIS) in the tile cache, by their address, for one day. Off: they are segmented again at each view.</source>
        <translation>Conserve aussi dans le cache de tuiles les tuiles des couches web et base de données (XYZ, WMS, WMTS, PostGIS), selon leur adresse, pendant un jour. Décoché : elles sont segmentées à nouveau à chaque vue.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/follow_view.py" line="93" />
        <source>Segment and score each map view once it settles, through the tile cache, into one live layer.</source>
        <translation>Segmente et évalue chaque vue de la carte une fois stabilisée, via le cache de tuiles, dans une seule couche en direct.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/follow_view.py" line="145" />
        <source>Segmenting the view…</source>
        <translation>Segmentation de la vue…</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/follow_view.py" line="157" />
        <source>Choose an input layer to follow the view.</source>
        <translation>Choisissez une couche d'entrée pour suivre la vue.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/follow_view.py" line="161" />
        <source>Zoom in to segment: this view is {mpx} Mpx at the model's resolution (limit {limit} Mpx).</source>
        <translation>Zoomez pour segmenter : cette vue fait {mpx} Mpx à la résolution du modèle (limite {limit} Mpx).</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/follow_view.py" line="165" />
        <source>The view does not cover the input layer.</source>
        <translation>La vue ne couvre pas la couche d'entrée.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/follow_view.py" line="205" />
        <source>The run failed.</source>
        <translation>Le traitement a échoué.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/follow_view.py" line="231" />
        <source>FLAIR live view — {model}</source>
        <translation>FLAIR vue en direct — {model}</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/follow_view.py" line="252" />
        <source>FLAIR live view</source>
        <translation>FLAIR vue en direct</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/follow_view.py" line="252" />
        <source>FLAIR view</source>
        <translation>FLAIR vue</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="139" />
        <source>Tile cache folder</source>
        <translation>Dossier du cache de tuiles</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="0" />
        <source>Cache web and database layers too (for one day, by their address)</source>
        <translation>Mettre aussi en cache les couches web et base de données (un jour, selon leur adresse)</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="165" />
        <source>Tiles read from the tile cache</source>
        <translation>Tuiles lues dans le cache de tuiles</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_panel.py" line="185" />
        <source>the class map</source>
        <translation>la carte des classes</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_panel.py" line="186" />
        <source>the reference</source>
        <translation>la référence</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_panel.py" line="190" />
        <source>The report</source>
        <translation>Le rapport</translation>
    </message>
    <message>
        <location filename="../processing/scoring_params.py" line="21" />
        <source>Model value -&gt; protocol code, when class names cannot align them (e.g. 0:1,1:2,12:13)</source>
        <translation>Valeur du modèle -&gt; code du protocole, quand les noms de classes ne suffisent pas à les aligner (ex. 0:1,1:2,12:13)</translation>
    </message>
    <message>
        <location filename="../gui/details.py" line="167" />
        <source>Confusion matrix</source>
        <translation>Matrice de confusion</translation>
    </message>
    <message>
        <location filename="../gui/segment/run_section.py" line="43" />
        <source>Confidence layer</source>
        <translation>Couche de confiance</translation>
    </message>
    <message>
        <location filename="../gui/segment/run_section.py" line="44" />
        <source>Also write the probability of the winning class (0..1); the suspicious-label ranking uses it</source>
        <translation>Écrire aussi la probabilité de la classe retenue (0..1) ; le classement des étiquettes suspectes s'en sert</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_suspicious.py" line="47" />
        <source>Details…</source>
        <translation>Détails…</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="53" />
        <source>Every figure per class: IoU, precision, recall, F1, support</source>
        <translation>Tous les chiffres par classe : IoU, précision, rappel, F1, effectif</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="56" />
        <source>Export…</source>
        <translation>Exporter…</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="57" />
        <source>Write the report: JSON, a per-class CSV and the confusion matrix PNG</source>
        <translation>Écrire le rapport : JSON, un CSV par classe et le PNG de la matrice de confusion</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="67" />
        <source>Confusion matrix, rows = reference, columns = prediction, row shares. Click to open it full size.</source>
        <translation>Matrice de confusion, lignes = référence, colonnes = prédiction, parts par ligne. Cliquez pour l'ouvrir en grand.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="110" />
        <source>Precision</source>
        <translation>Précision</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="110" />
        <source>Recall</source>
        <translation>Rappel</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="110" />
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="117" />
        <source>Scores per class</source>
        <translation>Scores par classe</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_suspicious.py" line="48" />
        <source>Every column: the model's class, the agreement, the pixels in disagreement</source>
        <translation>Toutes les colonnes : la classe du modèle, l'accord, les pixels en désaccord</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_suspicious.py" line="56" />
        <source>Pixels in disagreement</source>
        <translation>Pixels en désaccord</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="70" />
        <source>Runs an ONNX semantic-segmentation model over a raster layer (or part of it) in overlapping tiles and writes a class map styled with the model's classes and colours, optionally the probability of the winning class.

BANDS maps layer bands to model channels (e.g. 1,2,3,4,5); without it the bands the model declares are taken, else the layer bands named like the model's (Red, rouge, NIR...). MASK (polygons) bounds the run: the maps are nodata outside the polygons. TILE_SIZE and OVERLAP default to the model's metadata. DEVICE is auto (CUDA when available), cuda or cpu; the log says which one ran.

CACHE (a folder) stores each tile's result; later runs over the same ground read it instead of running the model (same pixels; the log says how many tiles came from it). Every source file of a VRT is checked: a tile whose source was rewritten is recomputed. Web and database layers are cached only with CACHE_REMOTE, by their address, for one day.

SCHEDULER runs the same engine on Dask distributed: local:N (N worker processes) or the address of a running scheduler (tcp://host:8786). The run then goes into a folder named after OUTPUT without its extension (chunks/, run.json) and OUTPUT is its mosaic classes.vrt; running again with the same OUTPUT computes only the missing chunks. Needs dask and distributed installed (scripts/flair segment is the command-line equivalent).

OUTPUT_VECTOR also writes the class map as polygons, cleaned by MIN_AREA_M2, FILL_HOLES_M2 and SIMPLIFY_M as flair:vectorize does.</source>
        <translation>Exécute un modèle ONNX de segmentation sémantique sur une couche raster (ou une partie) par tuiles qui se recouvrent, et écrit une carte des classes stylée avec les classes et les couleurs du modèle, et en option la probabilité de la classe retenue.

BANDS associe les bandes de la couche aux canaux du modèle (par ex. 1,2,3,4,5) ; sans lui, les bandes que le modèle déclare sont prises, sinon les bandes de la couche nommées comme celles du modèle (Red, rouge, NIR...). MASK (polygones) borne le traitement : les cartes sont sans donnée en dehors des polygones. TILE_SIZE et OVERLAP valent par défaut ceux des métadonnées du modèle. DEVICE vaut auto (CUDA si disponible), cuda ou cpu ; le journal dit lequel a servi.

CACHE (un dossier) conserve le résultat de chaque tuile ; les traitements suivants sur le même terrain le relisent au lieu d'exécuter le modèle (mêmes pixels ; le journal dit combien de tuiles en viennent). Chaque fichier source d'un VRT est vérifié : une tuile dont la source a été réécrite est recalculée. Les couches web et base de données ne sont mises en cache qu'avec CACHE_REMOTE, selon leur adresse, pendant un jour.

SCHEDULER exécute le même moteur sur Dask distributed : local:N (N processus de calcul) ou l'adresse d'un ordonnanceur en marche (tcp://hote:8786). Le traitement va alors dans un dossier nommé comme OUTPUT sans son extension (chunks/, run.json) et OUTPUT est sa mosaïque classes.vrt ; relancer avec le même OUTPUT ne calcule que les blocs manquants. Demande dask et distributed installés (scripts/flair segment en est l'équivalent en ligne de commande).

OUTPUT_VECTOR écrit aussi la carte de classes en polygones, nettoyés par MIN_AREA_M2, FILL_HOLES_M2 et SIMPLIFY_M comme le fait flair:vectorize.</translation>
    </message>
    <message>
        <location filename="../processing/segment_algorithm.py" line="156" />
        <source>Dask scheduler: empty (in-process), local:N or tcp://host:port (OUTPUT becomes a folder's VRT)</source>
        <translation>Ordonnanceur Dask : vide (dans ce processus), local:N ou tcp://hote:port (OUTPUT devient le VRT d'un dossier)</translation>
    </message>
    <message>
        <location filename="../processing/segment_scheduler.py" line="74" />
        <source>Distributed run in {folder}: {n} chunk(s).</source>
        <translation>Traitement distribué dans {folder} : {n} bloc(s).</translation>
    </message>
    <message>
        <location filename="../processing/segment_scheduler.py" line="79" />
        <source>{n} Dask worker(s) ready.</source>
        <translation>{n} processus Dask prêt(s).</translation>
    </message>
    <message>
        <location filename="../processing/segment_scheduler.py" line="82" />
        <source>Dask dashboard: {link}</source>
        <translation>Tableau de bord Dask : {link}</translation>
    </message>
    <message>
        <location filename="../processing/segment_scheduler.py" line="94" />
        <source>{run} chunk(s) computed, {skipped} already done; {tiles} tiles in {s:.1f} s.</source>
        <translation>{run} bloc(s) calculé(s), {skipped} déjà faits ; {tiles} tuiles en {s:.1f} s.</translation>
    </message>
    <message>
        <location filename="../processing/segment_scheduler.py" line="111" />
        <source>{done}/{total} tiles, {rate:.2f} tiles/s, ETA {eta}</source>
        <translation>{done}/{total} tuiles, {rate:.2f} tuiles/s, fin estimée dans {eta}</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="62" />
        <source>Confusion matrix (click to enlarge):</source>
        <translation>Matrice de confusion (cliquez pour agrandir) :</translation>
    </message>
    <message>
        <location filename="../adapters/evaluate_task.py" line="205" />
        <source>Errors by reference class</source>
        <translation>Erreurs par classe de référence</translation>
    </message>
    <message>
        <location filename="../adapters/segment_task.py" line="116" />
        <source>Confidence (0–1)</source>
        <translation>Confiance (0–1)</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_panel.py" line="115" />
        <source>Without the model's confidence, suspicious labels rank by disagreement only (ties by the area in disagreement): tick 'Confidence layer' on the Segment tab and run again to weigh them by confidence.</source>
        <translation>Sans la confiance du modèle, les étiquettes suspectes sont classées par désaccord seulement (égalités départagées par la surface en désaccord) : cochez « Couche de confiance » dans l'onglet Segmenter et relancez pour les pondérer par la confiance.</translation>
    </message>
    <message>
        <location filename="../gui/review/review_panel.py" line="94" />
        <source>Review</source>
        <translation>Revue</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="44" />
        <source>New review (sample)</source>
        <translation>Nouvelle revue</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="59" />
        <source>Only the map view</source>
        <translation>Vue de la carte seule</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="69" />
        <source>Create and review</source>
        <translation>Créer et revoir</translation>
    </message>
    <message>
        <location filename="../gui/review/review_panel.py" line="144" />
        <source>Labels</source>
        <translation>Étiquettes</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="71" />
        <source>Design</source>
        <translation>Plan d'échantillonnage</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="71" />
        <source>Items</source>
        <translation>Éléments</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="71" />
        <source>Min. per class</source>
        <translation>Min. par classe</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="71" />
        <source>Seed</source>
        <translation>Graine</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="71" />
        <source>Review file</source>
        <translation>Fichier de revue</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="122" />
        <source>Choose the class map to review.</source>
        <translation>Choisissez la carte de classes à revoir.</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="125" />
        <source>{path} exists: open it to resume, or choose another review file.</source>
        <translation>{path} existe : ouvrez-le pour reprendre, ou choisissez un autre fichier de revue.</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="131" />
        <source>The FLAIR Processing provider is not loaded (see the dock's banner).</source>
        <translation>Le fournisseur Processing FLAIR n'est pas chargé (voir le bandeau du panneau).</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="150" />
        <source>Sampling failed; see the Processing log.</source>
        <translation>L'échantillonnage a échoué ; voir le journal Processing.</translation>
    </message>
    <message>
        <location filename="../gui/review/review_panel.py" line="103" />
        <source>%v / %m reviewed</source>
        <translation>%v / %m revus</translation>
    </message>
    <message>
        <location filename="../gui/review/review_panel.py" line="110" />
        <source>Note on this item (Enter saves it)</source>
        <translation>Note sur cet élément (Entrée l'enregistre)</translation>
    </message>
    <message>
        <location filename="../gui/review/review_panel.py" line="115" />
        <source>Previous item</source>
        <translation>Élément précédent</translation>
    </message>
    <message>
        <location filename="../gui/review/review_panel.py" line="115" />
        <source>Next item (N or Space)</source>
        <translation>Élément suivant (N ou Espace)</translation>
    </message>
    <message>
        <location filename="../gui/review/review_panel.py" line="115" />
        <source>Correct C</source>
        <translation>Correcte C</translation>
    </message>
    <message>
        <location filename="../gui/review/review_panel.py" line="115" />
        <source>The label is correct</source>
        <translation>L'étiquette est correcte</translation>
    </message>
    <message>
        <location filename="../gui/review/review_panel.py" line="115" />
        <source>Unsure U</source>
        <translation>Incertain U</translation>
    </message>
    <message>
        <location filename="../gui/review/review_panel.py" line="115" />
        <source>Cannot tell</source>
        <translation>Impossible à dire</translation>
    </message>
    <message>
        <location filename="../gui/review/review_panel.py" line="129" />
        <source>Unreviewed items only</source>
        <translation>Non revus seulement</translation>
    </message>
    <message>
        <location filename="../gui/review/review_panel.py" line="131" />
        <source>Next after a verdict</source>
        <translation>Suivant après un verdict</translation>
    </message>
    <message>
        <location filename="../gui/review/review_panel.py" line="135" />
        <source>True class: click it, or press its key (Shift+digit from the 11th class on).</source>
        <translation>Vraie classe : cliquez-la, ou tapez sa touche (Maj+chiffre à partir de la 11e classe).</translation>
    </message>
    <message>
        <location filename="../gui/review/review_panel.py" line="138" />
        <source>Key</source>
        <translation>Touche</translation>
    </message>
    <message>
        <location filename="../gui/review/review_panel.py" line="144" />
        <source>Prediction</source>
        <translation>Prédiction</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="145" />
        <source>Open or create a review to start.</source>
        <translation>Ouvrez ou créez une revue pour commencer.</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="146" />
        <source>label correct</source>
        <translation>étiquette correcte</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="146" />
        <source>label wrong</source>
        <translation>étiquette fausse</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="146" />
        <source>unsure</source>
        <translation>incertain</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="147" />
        <source>not yet reviewed</source>
        <translation>pas encore revu</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="151" />
        <source>Item</source>
        <translation>Élément</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="152" />
        <source>Map class</source>
        <translation>Classe de la carte</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="153" />
        <source>Label class</source>
        <translation>Classe de l'étiquette</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="156" />
        <source>Verdict</source>
        <translation>Verdict</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="160" />
        <source>{wrong} of {n} reviewed labels wrong (not a probability sample)</source>
        <translation>{wrong} étiquettes fausses sur {n} revues (pas un échantillon probabiliste)</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="179" />
        <source>map accuracy incomplete: {n} classes without a reviewed item</source>
        <translation>précision de la carte incomplète : {n} classes sans élément revu</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="1" />
        <source>{n} item skipped</source>
        <translation>{n} élément sauté</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="1" />
        <source>{n} unsure item</source>
        <translation>{n} incertain</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="192" />
        <source>{n} items skipped</source>
        <translation>{n} éléments sautés</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="179" />
        <source>{n} unsure</source>
        <translation>{n} incertains</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="180" />
        <source>No verdict yet.</source>
        <translation>Aucun verdict pour l'instant.</translation>
    </message>
    <message>
        <location filename="../processing/apply_review_algorithm.py" line="67" />
        <source>Apply label review (corrected reference)</source>
        <translation>Appliquer la revue des étiquettes (référence corrigée)</translation>
    </message>
    <message>
        <location filename="../processing/sample_algorithm.py" line="66" />
        <source>Class field (polygons)</source>
        <translation>Champ de classe (polygones)</translation>
    </message>
    <message>
        <location filename="../processing/sample_algorithm.py" line="92" />
        <source>Review GeoPackage</source>
        <translation>GeoPackage de revue</translation>
    </message>
    <message>
        <location filename="../processing/apply_review_algorithm.py" line="86" />
        <source>Corrected reference (.tif for a raster, .gpkg for polygons)</source>
        <translation>Référence corrigée (.tif pour un raster, .gpkg pour des polygones)</translation>
    </message>
    <message>
        <location filename="../processing/apply_review_algorithm.py" line="92" />
        <source>Cells or polygons changed</source>
        <translation>Cellules ou polygones modifiés</translation>
    </message>
    <message>
        <location filename="../processing/apply_review_algorithm.py" line="128" />
        <source>{changed} changed from {reviewed} decided items ({outside} outside the reference): {path}</source>
        <translation>{changed} modifiés d'après {reviewed} éléments tranchés ({outside} hors de la référence) : {path}</translation>
    </message>
    <message>
        <location filename="../processing/base.py" line="46" />
        <source>MODEL must be an ONNX model (.onnx); {name} is not one.</source>
        <translation>MODEL doit être un modèle ONNX (.onnx) ; {name} n'en est pas un.</translation>
    </message>
    <message>
        <location filename="../processing/review_report_algorithm.py" line="31" />
        <source>Label review report</source>
        <translation>Rapport de revue des étiquettes</translation>
    </message>
    <message>
        <location filename="../processing/review_report_algorithm.py" line="48" />
        <source>Items reviewed</source>
        <translation>Éléments revus</translation>
    </message>
    <message>
        <location filename="../processing/review_report_algorithm.py" line="49" />
        <source>Label-error rate</source>
        <translation>Taux d'erreur des étiquettes</translation>
    </message>
    <message>
        <location filename="../processing/review_report_algorithm.py" line="66" />
        <source>{reviewed} of {items} items reviewed ({unsure} unsure); label errors: {rate}.</source>
        <translation>{reviewed} éléments revus sur {items} ({unsure} incertains) ; erreurs d'étiquette : {rate}.</translation>
    </message>
    <message>
        <location filename="../processing/review_report_algorithm.py" line="66" />
        <source>{wrong} of {n} reviewed items wrong (not a probability sample)</source>
        <translation>{wrong} éléments faux sur {n} revus (pas un échantillon probabiliste)</translation>
    </message>
    <message>
        <location filename="../processing/review_report_algorithm.py" line="81" />
        <source>Estimator: {name}</source>
        <translation>Estimateur : {name}</translation>
    </message>
    <message>
        <location filename="../processing/sample_algorithm.py" line="47" />
        <source>Sample items for label review</source>
        <translation>Échantillonner des éléments pour la revue des étiquettes</translation>
    </message>
    <message>
        <source>Writes a review GeoPackage: layer 'review' (one item per sampled pixel centre, or per reference polygon for 'suspicious', with map class, label class, confidence, suspicion and empty verdict fields), table 'review_strata' (pixels per stratum), table 'review_design' and, with a reference, table 'review_label_cells' (pixels per stratum x label class).

DESIGN: stratified (strata = predicted classes, Olofsson et al. 2014; MIN_PER_CLASS per stratum, the rest in proportion to area), random, grid (systematic, random offset), suspicious (reference polygons most contradicted by the model first), stratified_confidence (strata = predicted class x confidence below / at or above CONFIDENCE_THRESHOLD; LOW_CONFIDENCE_SHARE of the items go to the low-confidence strata; needs CONFIDENCE; estimates after Stehman 2014), stratified_label (strata = predicted class x label class, for reviews whose aim is the labels; needs REFERENCE). MIN_PER_CLASS is at least 2 in the stratified designs. DOUBLE_REVIEW: share of the items, spread over the strata, that a second interpreter reviews blind (field 'double'); kappa and AC1 get an interval from 50 double-reviewed items on. Review the items in the FLAIR dock's Review tab.</source>
        <translation>Écrit un GeoPackage de revue : couche « review » (un élément par centre de pixel tiré, ou par polygone de référence pour « suspicious », avec classe de la carte, classe de l'étiquette, confiance, suspicion et des champs de verdict vides), table « review_strata » (pixels par strate), table « review_design » et, avec une référence, table « review_label_cells » (pixels par strate x classe d'étiquette).

DESIGN : stratified (strates = classes prédites, Olofsson et al. 2014 ; MIN_PER_CLASS par strate, le reste au prorata de la surface), random, grid (systématique, décalage aléatoire), suspicious (les polygones de référence les plus contredits par le modèle d'abord), stratified_confidence (strates = classe prédite x confiance sous / au-dessus de CONFIDENCE_THRESHOLD ; LOW_CONFIDENCE_SHARE des éléments vont aux strates de faible confiance ; demande CONFIDENCE ; estimations selon Stehman 2014), stratified_label (strates = classe prédite x classe de l'étiquette, pour une revue qui vise les étiquettes ; demande REFERENCE). MIN_PER_CLASS vaut au moins 2 dans les plans stratifiés. DOUBLE_REVIEW : part des éléments, répartie sur les strates, qu'un second interprète revoit à l'aveugle (champ « double ») ; kappa et AC1 ont un intervalle à partir de 50 éléments revus deux fois. Revoyez les éléments dans l'onglet Revue du panneau FLAIR.</translation>
    </message>
    <message>
        <location filename="../processing/sample_algorithm.py" line="61" />
        <source>Labels under review (raster mask or polygons)</source>
        <translation>Étiquettes à revoir (masque raster ou polygones)</translation>
    </message>
    <message>
        <location filename="../processing/sample_algorithm.py" line="74" />
        <source>Sampling design</source>
        <translation>Plan d'échantillonnage</translation>
    </message>
    <message>
        <location filename="../processing/sample_algorithm.py" line="80" />
        <source>Items (total)</source>
        <translation>Éléments (total)</translation>
    </message>
    <message>
        <location filename="../processing/sample_algorithm.py" line="83" />
        <source>Minimum items per class (stratified)</source>
        <translation>Minimum d'éléments par classe (stratifié)</translation>
    </message>
    <message>
        <location filename="../processing/sample_algorithm.py" line="89" />
        <source>Random seed</source>
        <translation>Graine aléatoire</translation>
    </message>
    <message>
        <location filename="../processing/sample_algorithm.py" line="97" />
        <source>Items to review</source>
        <translation>Éléments à revoir</translation>
    </message>
    <message>
        <location filename="../processing/sample_algorithm.py" line="150" />
        <source>{n} items ({design}) written to {path}. Strata: {strata}.</source>
        <translation>{n} éléments ({design}) écrits dans {path}. Strates : {strata}.</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="135" />
        <source>none</source>
        <translation>aucune</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_layers.py" line="1" />
        <source>No spatial index: each score reads the whole file.</source>
        <translation>Pas d'index spatial : chaque évaluation lit tout le fichier.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_layers.py" line="1" />
        <source>Create it</source>
        <translation>Le créer</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_layers.py" line="1" />
        <source>Writes a spatial index file beside the layer (a .qix for a shapefile); the data is not modified.</source>
        <translation>Écrit un fichier d'index spatial à côté de la couche (un .qix pour un shapefile) ; les données ne sont pas modifiées.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_layers.py" line="1" />
        <source>Creating the spatial index…</source>
        <translation>Création de l'index spatial…</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_layers.py" line="1" />
        <source>The spatial index could not be created (read-only folder?): scoring still works, slower.</source>
        <translation>L'index spatial n'a pas pu être créé (dossier en lecture seule ?) : l'évaluation fonctionne, plus lentement.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_layers.py" line="1" />
        <source>FLAIR: indexing {name}</source>
        <translation>FLAIR : indexation de {name}</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="1" />
        <source>INT8 (from {name})</source>
        <translation>INT8 (issu de {name})</translation>
    </message>
    <message>
        <location filename="../i18n/__init__.py" line="1" />
        <source>INT8: no VNNI on this CPU; onnxruntime uses the slower {isa} integer path (still typically faster than FP32)</source>
        <translation>INT8 : pas de VNNI sur ce processeur ; onnxruntime utilise le chemin entier {isa}, plus lent (généralement plus rapide que FP32 malgré tout)</translation>
    </message>
    <message>
        <location filename="../i18n/__init__.py" line="1" />
        <source>INT8: no VNNI, AVX2 or dot-product instructions on this CPU, expect little gain</source>
        <translation>INT8 : ni VNNI, ni AVX2, ni instructions de produit scalaire sur ce processeur, gain faible attendu</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>Quantise ONNX model to INT8</source>
        <translation>Quantifier un modèle ONNX en INT8</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>Writes an INT8 copy of an FP32 ONNX model with onnxruntime's quantiser, for faster runs on CPUs (about twice on CPUs with VNNI).

CALIBRATION: raster layers like the ones the model will segment, read with the model's bands and normalisation. CALIBRATION_TILES tiles are drawn from them at random with SEED and VALIDATION_TILES other tiles are held out: the log gives the share of their pixels where INT8 and FP32 agree and the IoU of each class (FP32 as reference), and warns below 0.98.

METHOD static (calibrated, the default) or dynamic. The model is first prepared with onnxruntime's quant_pre_process (shape inference, constant folding, Conv+BatchNorm fusion).

Before the file is written, INT8 is timed against FP32 on the held-out tiles with THREADS threads (0: every core, as flair:segment uses): the log gives the speed-up and warns when INT8 is not at least 1.1 times as fast on this CPU.

The output keeps the model's metadata and adds 'quantization' (method, calibration, onnxruntime version, the FP32 model's SHA-256, the speed-up, threads and CPU it was measured on). The same seed gives the same graph. Needs the onnx package.</source>
        <translation>Écrit une copie INT8 d'un modèle ONNX FP32 avec le quantificateur d'onnxruntime, pour des exécutions plus rapides sur processeur (environ deux fois sur les processeurs dotés de VNNI).

CALIBRATION : couches raster semblables à celles que le modèle segmentera, lues avec les bandes et la normalisation du modèle. CALIBRATION_TILES tuiles y sont tirées au hasard avec SEED et VALIDATION_TILES autres tuiles sont mises de côté : le journal donne la part de leurs pixels où INT8 et FP32 concordent et l'IoU de chaque classe (FP32 comme référence), et avertit en dessous de 0,98.

METHOD static (calibrée, par défaut) ou dynamic. Le modèle passe d'abord par quant_pre_process d'onnxruntime (inférence des formes, pliage des constantes, fusion Conv+BatchNorm).

Avant l'écriture du fichier, INT8 est chronométré face à FP32 sur les tuiles mises de côté avec THREADS fils d'exécution (0 : tous les cœurs, comme flair:segment) : le journal donne l'accélération et avertit quand INT8 n'est pas au moins 1,1 fois plus rapide sur ce processeur.

La sortie garde les métadonnées du modèle et ajoute « quantization » (méthode, calibration, version d'onnxruntime, SHA-256 du modèle FP32, accélération, fils d'exécution et processeur de la mesure). La même graine donne le même graphe. Nécessite le paquet onnx.</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>FP32 ONNX model</source>
        <translation>Modèle ONNX FP32</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>Calibration raster layers</source>
        <translation>Couches raster de calibration</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>Calibration tiles</source>
        <translation>Tuiles de calibration</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>Held-out validation tiles</source>
        <translation>Tuiles de validation mises de côté</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>Method</source>
        <translation>Méthode</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>Calibrator</source>
        <translation>Calibreur</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>Keep the first and last convolutions in FP32</source>
        <translation>Garder la première et la dernière convolution en FP32</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>INT8 ONNX model</source>
        <translation>Modèle ONNX INT8</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>Pixel agreement of INT8 with FP32</source>
        <translation>Concordance des pixels entre INT8 et FP32</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>Calibration tiles used</source>
        <translation>Tuiles de calibration utilisées</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>Validation tiles used</source>
        <translation>Tuiles de validation utilisées</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>SHA-256 of the INT8 model</source>
        <translation>SHA-256 du modèle INT8</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>Choose at least one calibration raster layer.</source>
        <translation>Choisissez au moins une couche raster de calibration.</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>No validation tile: INT8 was not compared with FP32.</source>
        <translation>Aucune tuile de validation : INT8 n'a pas été comparé à FP32.</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>INT8 model written to {path} ({method}, {n} calibration tile(s) from {sources}) in {s:.1f} s.</source>
        <translation>Modèle INT8 écrit dans {path} ({method}, {n} tuile(s) de calibration de {sources}) en {s:.1f} s.</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>INT8 agrees with FP32 on {pct:.2f} % of {px} pixels ({tiles} held-out tile(s)).</source>
        <translation>INT8 concorde avec FP32 sur {pct:.2f} % de {px} pixels ({tiles} tuile(s) mise(s) de côté).</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>INT8 agrees with FP32 on less than {pct:g} % of pixels: compare its class maps before using it, or calibrate on more tiles.</source>
        <translation>INT8 concorde avec FP32 sur moins de {pct:g} % des pixels : comparez ses cartes de classes avant de l'utiliser, ou calibrez sur plus de tuiles.</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>  {value} {name}: IoU {iou:.4f} (FP32 {fp32} px, INT8 {int8} px)</source>
        <translation>  {value} {name} : IoU {iou:.4f} (FP32 {fp32} px, INT8 {int8} px)</translation>
    </message>
    <message>
        <location filename="../adapters/deps.py" line="1" />
        <source>{feature} needs {modules}, which segmenting alone does not: {failures}. {install}</source>
        <translation>{feature} a besoin de {modules}, dont la segmentation seule se passe : {failures}. {install}</translation>
    </message>
    <message>
        <location filename="../adapters/deps.py" line="1" />
        <source>Install onnx into the plugin's folder with:
{command}
(make setup installs it into the project's environment from requirements-dev.txt.)</source>
        <translation>Installez onnx dans le dossier de l'extension avec :
{command}
(make setup l'installe dans l'environnement du projet depuis requirements-dev.txt.)</translation>
    </message>
    <message>
        <location filename="../adapters/deps.py" line="1" />
        <source>{advice}
Or install scipy into the plugin's folder with:
{command}</source>
        <translation>{advice}
Ou installez scipy dans le dossier de l'extension avec :
{command}</translation>
    </message>
    <message>
        <location filename="../adapters/deps.py" line="1" />
        <source>Merging polygons (MIN_AREA_M2, FILL_HOLES_M2; 'Merge under', 'Fill holes under')</source>
        <translation>La fusion des polygones (MIN_AREA_M2, FILL_HOLES_M2 ; « Fusionner sous », « Combler les trous sous »)</translation>
    </message>
    <message>
        <source>Polygon {fid} (class {label}) left unchanged: items {items} (true classes {classes}): {reason}.</source>
        <translation>Polygone {fid} (classe {label}) laissé inchangé : éléments {items} (vraies classes {classes}) : {reason}.</translation>
    </message>
    <message>
        <location filename="../processing/apply_review_algorithm.py" line="1" />
        <source>Cell at row {row}, column {col} (code {label}) left unchanged: items {items} (true classes {classes}): {reason}.</source>
        <translation>Cellule ligne {row}, colonne {col} (code {label}) laissée inchangée : éléments {items} (vraies classes {classes}) : {reason}.</translation>
    </message>
    <message>
        <source>its items disagree</source>
        <translation>ses éléments sont en désaccord</translation>
    </message>
    <message>
        <source>the item's point is outside its source_fid polygon</source>
        <translation>le point de l'élément est hors de son polygone source_fid</translation>
    </message>
    <message>
        <source>the layer has no feature with the item's source_fid</source>
        <translation>la couche n'a pas d'entité portant le source_fid de l'élément</translation>
    </message>
    <message>
        <source>{n} of the changed polygons rest on a single reviewed item (field 'review_items').</source>
        <translation>{n} des polygones modifiés reposent sur un seul élément revu (champ « review_items »).</translation>
    </message>
    <message>
        <source>Confidence threshold (stratified_confidence)</source>
        <translation>Seuil de confiance (stratified_confidence)</translation>
    </message>
    <message>
        <source>Share of items below the threshold (stratified_confidence)</source>
        <translation>Part des éléments sous le seuil (stratified_confidence)</translation>
    </message>
    <message>
        <source>Share of items for a second interpreter</source>
        <translation>Part des éléments pour un second interprète</translation>
    </message>
    <message>
        <source>Two interpreters on {n} items: raw agreement {raw:.2f}, kappa {kappa}, AC1 {ac1}; {d} disagreements ({a} adjudicated).</source>
        <translation>Deux interprètes sur {n} éléments : accord brut {raw:.2f}, kappa {kappa}, AC1 {ac1} ; {d} désaccords ({a} arbitrés).</translation>
    </message>
    <message>
        <source>Reviewer</source>
        <translation>Interprète</translation>
    </message>
    <message>
        <source>First review</source>
        <translation>Première revue</translation>
    </message>
    <message>
        <source>Second review (blind)</source>
        <translation>Seconde revue (à l'aveugle)</translation>
    </message>
    <message>
        <source>Disagreements</source>
        <translation>Désaccords</translation>
    </message>
    <message>
        <source>first: {first}, second: {second}</source>
        <translation>première : {first}, seconde : {second}</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source> and </source>
        <translation> et </translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>, say which code each prediction value is with CLASS_MAP (value:code,...)</source>
        <translation>, indiquez quel code est chaque valeur prédite avec CLASS_MAP (valeur:code,...)</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>A polygon reference needs REFERENCE_FIELD: the field holding the class values.</source>
        <translation>Une référence en polygones demande REFERENCE_FIELD : le champ qui porte les valeurs de classe.</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>Cannot find {inputs}: pick the layers under Prediction [M] and Labels [R]; verdicts are accepted once the item is seen over one of them.</source>
        <translation>Introuvable : {inputs}. Choisissez les couches sous Prédiction [M] et Étiquettes [R] ; les verdicts sont acceptés une fois l'élément vu sur l'une d'elles.</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>Check the class field, pick the protocol of these layers under 'Protocol', or 'custom' to score the values as they are.</source>
        <translation>Vérifiez le champ de classe, choisissez le protocole de ces couches sous « Protocole », ou « custom » pour évaluer les valeurs telles quelles.</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>Field '{field}' looks like an identifier, not a class (more than {limit} different values): pick the class field.</source>
        <translation>Le champ « {field} » ressemble à un identifiant, pas à une classe (plus de {limit} valeurs différentes) : choisissez le champ de classe.</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>Give CLASS_MAP as value:code pairs (e.g. 0:1,1:2), or choose the protocol of this model.</source>
        <translation>Donnez CLASS_MAP en paires valeur:code (par ex. 0:1,1:2), ou choisissez le protocole de ce modèle.</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>Label errors {rate} (no interval yet)</source>
        <translation>Erreurs d'étiquette {rate} (pas encore d'intervalle)</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>Label errors {rate} [{low}–{high}] of {n}</source>
        <translation>Erreurs d'étiquette {rate} [{low}–{high}] sur {n}</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>Labels given as polygons need their class field: pick it under 'Class field'.</source>
        <translation>Des étiquettes en polygones demandent leur champ de classe : choisissez-le sous « Champ de classe ».</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>No class map or labels on the map: load one (Prediction [M] or Labels [R]) and look at the item before giving a verdict.</source>
        <translation>Ni carte de classes ni étiquettes sur la carte : chargez-en une (Prédiction [M] ou Étiquettes [R]) et regardez l'élément avant de donner un verdict.</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>No pixel has data in both the class map and the reference here: check that they cover the same place, and their nodata.</source>
        <translation>Aucun pixel n'a de données à la fois dans la carte de classes et dans la référence ici : vérifiez qu'elles couvrent le même endroit, et leurs valeurs nodata.</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>Pick the protocol of this model under 'Protocol', or 'custom'.</source>
        <translation>Choisissez le protocole de ce modèle sous « Protocole », ou « custom ».</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>Protocol {protocol} does not declare {values} (its classes are {classes}). Add them to IGNORE_CLASSES, regroup them with PROTOCOL=custom and REMAP{class_map}, or pick the protocol that matches these rasters.</source>
        <translation>Le protocole {protocol} ne déclare pas {values} (ses classes sont {classes}). Ajoutez-les à IGNORE_CLASSES, regroupez-les avec PROTOCOL=custom et REMAP{class_map}, ou choisissez le protocole de ces rasters.</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>Protocol {protocol} does not know {values} (its classes are {classes}).</source>
        <translation>Le protocole {protocol} ne connaît pas {values} (ses classes sont {classes}).</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>Saved to: {path}</source>
        <translation>Enregistrée dans : {path}</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>Segmented {area} on {device} in {s} s</source>
        <translation>{area} segmentés sur {device} en {s} s</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>The class field looks like an identifier, not a class: pick the class field.</source>
        <translation>Le champ de classe ressemble à un identifiant, pas à une classe : choisissez le champ de classe.</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>The class map's classes ({declared}) are neither the codes nor the class names of protocol {protocol} ({classes}).</source>
        <translation>Les classes de la carte ({declared}) ne sont ni les codes ni les noms de classe du protocole {protocol} ({classes}).</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>The last review cannot be found: it was {path}. It was moved or deleted (a review in QGIS's temporary folder is deleted when QGIS quits); open it where it is now, or create a new one.</source>
        <translation>La dernière revue est introuvable : elle était {path}. Elle a été déplacée ou supprimée (une revue dans le dossier temporaire de QGIS est supprimée quand QGIS se ferme) ; ouvrez-la là où elle est maintenant, ou créez-en une nouvelle.</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>The reference layer has no field '{field}'. Its fields are: {fields}.</source>
        <translation>La couche de référence n'a pas de champ « {field} ». Ses champs sont : {fields}.</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>class map values {values}</source>
        <translation>les valeurs de la carte de classes {values}</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>map OA {oa}</source>
        <translation>OA de la carte {oa}</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>prediction value(s) {values}</source>
        <translation>la ou les valeurs prédites {values}</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>reference value(s) {values}</source>
        <translation>la ou les valeurs de référence {values}</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>reference values {values}</source>
        <translation>les valeurs de référence {values}</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>simple random</source>
        <translation>aléatoire simple</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>stratified by class</source>
        <translation>stratifié par classe</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>stratified by confidence</source>
        <translation>stratifié par confiance</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>suspicious labels first</source>
        <translation>étiquettes suspectes d'abord</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>systematic grid</source>
        <translation>grille systématique</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>the class map {path}</source>
        <translation>la carte de classes {path}</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>the labels {path}</source>
        <translation>les étiquettes {path}</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>{cached} of {tiles} from the cache, {s} s.</source>
        <translation>depuis le cache : {cached} sur {tiles}, {s} s.</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>{n} tile</source>
        <translation>{n} tuile</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>{n} tiles</source>
        <translation>{n} tuiles</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>{path} is in QGIS's temporary folder, which QGIS deletes when it quits: the verdicts would be lost. Choose a review file in a folder of yours, or leave it empty to save beside the project.</source>
        <translation>{path} est dans le dossier temporaire de QGIS, que QGIS supprime en se fermant : les verdicts seraient perdus. Choisissez un fichier de revue dans un de vos dossiers, ou laissez vide pour l'enregistrer à côté du projet.</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>… and {n} more</source>
        <translation>… et {n} de plus</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>FLAIR: segmenting {name}</source>
        <translation>FLAIR : segmentation de {name}</translation>
    </message>
    <message>
        <location filename="../adapters/warm_up.py" line="1" />
        <source>FLAIR: loading libraries</source>
        <translation>FLAIR : chargement des bibliothèques</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>FLAIR: scoring the view</source>
        <translation>FLAIR : évaluation de la vue</translation>
    </message>
    <message>
        <location filename="../adapters/describe_task.py" line="1" />
        <source>FLAIR: describing {name}</source>
        <translation>FLAIR : description de {name}</translation>
    </message>
    <message>
        <location filename="../gui/segment/model_section.py" line="1" />
        <source>Writing the described copy… %p%</source>
        <translation>Écriture de la copie décrite… %p%</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>Band {n}</source>
        <translation>Bande {n}</translation>
    </message>
    <message>
        <location filename="../gui/dock.py" line="1" />
        <source>This layer's CRS is a local Lambert-93 without EPSG code: QGIS cannot place it.</source>
        <translation>Le SCR de cette couche est un Lambert-93 local sans code EPSG : QGIS ne peut pas la placer.</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="127" />
        <source>Each class is split in two strata: confidence below this value, and at or above it.</source>
        <translation>Chaque classe est coupée en deux strates : confiance sous cette valeur, et égale ou au-dessus.</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="129" />
        <source>Share of the items drawn where the confidence is below the threshold.</source>
        <translation>Part des éléments tirés là où la confiance est sous le seuil.</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="131" />
        <source>Share of the items a second interpreter reviews blind, spread over the strata.</source>
        <translation>Part des éléments qu'un second interprète revoit à l'aveugle, répartie sur les strates.</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="140" />
        <source>Confidence threshold</source>
        <translation>Seuil de confiance</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="140" />
        <source>Items below it</source>
        <translation>Éléments sous le seuil</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="141" />
        <source>Second interpreter</source>
        <translation>Second interprète</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="265" />
        <source>Stratified by confidence needs the model's confidence layer: pick it under Confidence (a run with 'Confidence layer' ticked writes it).</source>
        <translation>Le plan stratifié par confiance demande la couche de confiance du modèle : choisissez-la sous Confiance (un lancement avec « Couche de confiance » cochée l'écrit).</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="183" />
        <source>{n} stratum</source>
        <translation>{n} strate</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="183" />
        <source>{n} strata</source>
        <translation>{n} strates</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="211" />
        <source>map accuracy incomplete: {n} of {total} strata without a reviewed item</source>
        <translation>précision de la carte incomplète : {n} strates sur {total} sans élément revu</translation>
    </message>
    <message>
        <source>Class values to keep (e.g. 1,3; empty = all)</source>
        <translation>Valeurs de classe à garder (ex. 1,3 ; vide = toutes)</translation>
    </message>
    <message>
        <source>Confidence raster (optional)</source>
        <translation>Raster de confiance (facultatif)</translation>
    </message>
    <message>
        <source>Fill enclosed regions smaller than (m², 0 = none)</source>
        <translation>Combler les régions enclavées de moins de (m², 0 = aucune)</translation>
    </message>
    <message>
        <source>Merge regions smaller than (m², 0 = keep all)</source>
        <translation>Fusionner les régions de moins de (m², 0 = tout garder)</translation>
    </message>
    <message>
        <source>PREDICTION is missing: choose a class-map raster.</source>
        <translation>PREDICTION manque : choisissez un raster de carte de classes.</translation>
    </message>
    <message>
        <source>Polygons (the class map vectorized)</source>
        <translation>Polygones (la carte de classes vectorisée)</translation>
    </message>
    <message>
        <source>Polygons written</source>
        <translation>Polygones écrits</translation>
    </message>
    <message>
        <source>Simplify boundaries by (m, 0 = exact pixel edges)</source>
        <translation>Simplifier les limites de (m, 0 = bords de pixels exacts)</translation>
    </message>
    <message>
        <source>Turns a class map into one polygon per connected region (pixels touching by an edge; two regions touching only at a corner stay two), in layer 'predictions' with fields class, name, area_m2 (true square metres for any CRS), confidence (mean of CONFIDENCE over the region), model, source and created. Without cleaning the polygons give back the class map pixel for pixel; nodata stays out.

MIN_AREA_M2 merges each smaller region into the neighbour sharing its longest boundary (the total area is kept). FILL_HOLES_M2 absorbs smaller regions enclosed by one region. SIMPLIFY_M simplifies each shared boundary once for both neighbours: no gap, no overlap. CLASSES keeps only the listed values (e.g. 1,3).

The raster is read band by band, so memory does not grow with its size.</source>
        <translation>Transforme une carte de classes en un polygone par région connexe (pixels qui se touchent par un côté ; deux régions qui ne se touchent que par un coin restent deux), dans la couche 'predictions' avec les champs class, name, area_m2 (vrais mètres carrés dans tout SCR), confidence (moyenne de CONFIDENCE sur la région), model, source et created. Sans nettoyage, les polygones redonnent la carte de classes pixel pour pixel ; le nodata reste dehors.

MIN_AREA_M2 fusionne chaque région plus petite dans la voisine qui partage sa plus longue limite (la surface totale est gardée). FILL_HOLES_M2 absorbe les régions plus petites enclavées dans une seule région. SIMPLIFY_M simplifie chaque limite partagée une seule fois pour les deux voisines : ni trou ni chevauchement. CLASSES ne garde que les valeurs listées (ex. 1,3).

Le raster est lu bande par bande : la mémoire ne croît pas avec sa taille.</translation>
    </message>
    <message>
        <source>Vectorize class map to polygons</source>
        <translation>Vectoriser une carte de classes en polygones</translation>
    </message>
    <message>
        <source>Vectorizing the class map...</source>
        <translation>Vectorisation de la carte de classes...</translation>
    </message>
    <message>
        <source>{n} polygon(s) written to {path}</source>
        <translation>{n} polygone(s) écrit(s) dans {path}</translation>
    </message>
    <message>
        <source>{what} must be a raster file (GeoTIFF, VRT...); {name} is not one. Save it as a GeoTIFF first.</source>
        <translation>{what} doit être un fichier raster (GeoTIFF, VRT...) ; {name} n'en est pas un. Enregistrez-le d'abord en GeoTIFF.</translation>
    </message>
    <message>
        <source>Also as polygons</source>
        <translation>Aussi en polygones</translation>
    </message>
    <message>
        <source>Also write the class map as polygons (a GeoPackage beside it), one per connected region, with class, name, area and mean confidence; added to the run&apos;s group over the class map</source>
        <translation>Écrire aussi la carte de classes en polygones (un GeoPackage à côté), un par région connexe, avec classe, nom, surface et confiance moyenne ; ajoutés au groupe de l&apos;exécution, au-dessus de la carte de classes</translation>
    </message>
    <message>
        <source>Regions smaller than this merge into their longest neighbour</source>
        <translation>Les régions plus petites fusionnent avec le voisin qui partage la plus longue limite</translation>
    </message>
    <message>
        <source>Simplify shared boundaries once, keeping one coverage</source>
        <translation>Simplifier une seule fois chaque limite partagée, sans trou ni chevauchement</translation>
    </message>
    <message>
        <source>Enclosed regions smaller than this are filled</source>
        <translation>Les régions enclavées plus petites sont comblées</translation>
    </message>
    <message>
        <source>Merge under</source>
        <translation>Fusionner sous</translation>
    </message>
    <message>
        <source>Simplify by</source>
        <translation>Simplifier de</translation>
    </message>
    <message>
        <source>Fill holes under</source>
        <translation>Combler les trous sous</translation>
    </message>
    <message>
        <source>off</source>
        <translation>non</translation>
    </message>
    <message>
        <source>polygons</source>
        <translation>polygones</translation>
    </message>
    <message>
        <source>Output &apos;{name}&apos; is a value map, not classes: it has no polygons; untick &apos;Also as polygons&apos;.</source>
        <translation>La sortie « {name} » est une carte de valeurs, pas de classes : elle n&apos;a pas de polygones ; décochez « Aussi en polygones ».</translation>
    </message>
    <message>
        <source>Output &apos;{name}&apos; is a value map, not classes: it has no polygons; leave OUTPUT_VECTOR empty.</source>
        <translation>La sortie « {name} » est une carte de valeurs, pas de classes : elle n&apos;a pas de polygones ; laissez OUTPUT_VECTOR vide.</translation>
    </message>
    <message>
        <source>Output &apos;{name}&apos; gives no class scores: a confidence raster cannot be computed; leave OUTPUT_CONFIDENCE empty.</source>
        <translation>La sortie « {name} » ne donne pas de scores de classes : aucun raster de confiance ne peut être calculé ; laissez OUTPUT_CONFIDENCE vide.</translation>
    </message>
    <message>
        <source>Output &apos;{name}&apos; is a value map, not class scores: it has no confidence; untick it.</source>
        <translation>La sortie « {name} » est une carte de valeurs, pas de scores de classes : elle n&apos;a pas de confiance ; décochez-la.</translation>
    </message>
    <message>
        <source>This model outputs class indices, not scores: it cannot give a confidence; untick it.</source>
        <translation>Ce modèle donne des indices de classes, pas des scores : il ne peut pas donner de confiance ; décochez-la.</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>CPU threads to time INT8 against FP32 with (0: all cores, as flair:segment)</source>
        <translation>Fils d'exécution du processeur pour chronométrer INT8 face à FP32 (0 : tous les cœurs, comme flair:segment)</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>INT8 speed-up over FP32 on this CPU</source>
        <translation>Accélération d'INT8 par rapport à FP32 sur ce processeur</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>INT8 was not timed against FP32: no validation or calibration tile to time it on.</source>
        <translation>INT8 n'a pas été chronométré face à FP32 : aucune tuile de validation ni de calibration pour le faire.</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>{n} thread</source>
        <translation>{n} fil d'exécution</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>{n} threads</source>
        <translation>{n} fils d'exécution</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>INT8 runs at {ratio}× FP32 on this CPU ({cpu}; {flags}) with {threads}: {fp32} s against {int8} s per tile, median of {rounds} alternated runs over {tiles} tile(s).</source>
        <translation>INT8 tourne à {ratio}× FP32 sur ce processeur ({cpu} ; {flags}) avec {threads} : {fp32} s contre {int8} s par tuile, médiane de {rounds} exécutions alternées sur {tiles} tuile(s).</translation>
    </message>
    <message>
        <location filename="../processing/quantize_algorithm.py" line="1" />
        <source>INT8 is slower than FP32 on this CPU with {threads}: keep the FP32 model (INT8 ran at {speedup:.2f}x FP32 on {tiles} tile(s), less than the {worth:g}x that makes it worth it).</source>
        <translation>INT8 est plus lent que FP32 sur ce processeur avec {threads} : gardez le modèle FP32 (INT8 a tourné à {speedup:.2f}x FP32 sur {tiles} tuile(s), moins que les {worth:g}x qui le rendent intéressant).</translation>
    </message>
    <message>
        <location filename="../i18n/model_texts.py" line="1" />
        <source>INT8: {ratio}× FP32 on this CPU ({threads})</source>
        <translation>INT8 : {ratio}× FP32 sur ce processeur ({threads})</translation>
    </message>
    <message>
        <location filename="../i18n/model_texts.py" line="1" />
        <source>INT8: {ratio}× FP32 measured on {cpu} ({threads})</source>
        <translation>INT8 : {ratio}× FP32 mesuré sur {cpu} ({threads})</translation>
    </message>
    <message>
        <location filename="../i18n/model_texts.py" line="1" />
        <source>another CPU</source>
        <translation>un autre processeur</translation>
    </message>
    <message>
        <location filename="../i18n/errors.py" line="110" />
        <source>The model expects {channels} bands but the layer has {count}: choose a layer with {channels} bands, or a layer band for each model channel.</source>
        <translation>Le modèle attend {channels} bandes mais la couche n&apos;en a que {count} : choisissez une couche à {channels} bandes, ou une bande de la couche pour chaque canal du modèle.</translation>
    </message>
    <message>
        <location filename="../adapters/segment_task.py" line="145" />
        <source>{rate} tiles/s</source>
        <translation>{rate} tuiles/s</translation>
    </message>
    <message>
        <location filename="../gui/segment/segment_panel.py" line="107" />
        <source>This machine has an NVIDIA GPU: install {package} to use it.</source>
        <translation>Cette machine a un GPU NVIDIA : installez {package} pour l&apos;utiliser.</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="1" />
        <source>Label errors {rate}</source>
        <translation>Erreurs d'étiquette {rate}</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="1" />
        <source>not enough items for an interval</source>
        <translation>pas assez d'éléments pour un intervalle</translation>
    </message>
    <message>
        <location filename="../gui/review/review_figures.py" line="1" />
        <source>Korn–Graubard</source>
        <translation>Korn–Graubard</translation>
    </message>
    <message>
        <location filename="../gui/review/review_figures.py" line="1" />
        <source>Clopper–Pearson (exact)</source>
        <translation>Clopper–Pearson (exact)</translation>
    </message>
    <message>
        <location filename="../gui/review/review_figures.py" line="1" />
        <source>exact, finite population</source>
        <translation>exact, population finie</translation>
    </message>
    <message>
        <location filename="../gui/review/review_figures.py" line="1" />
        <source>census: every unit reviewed</source>
        <translation>recensement : chaque unité revue</translation>
    </message>
    <message>
        <location filename="../gui/review/review_figures.py" line="1" />
        <source>normal</source>
        <translation>normale</translation>
    </message>
    <message>
        <location filename="../gui/review/review_figures.py" line="1" />
        <source>Student t on Gwet's variance</source>
        <translation>t de Student sur la variance de Gwet</translation>
    </message>
    <message>
        <location filename="../gui/review/review_figures.py" line="1" />
        <source>no item</source>
        <translation>aucun élément</translation>
    </message>
    <message>
        <location filename="../gui/review/review_figures.py" line="1" />
        <source>Label errors</source>
        <translation>Erreurs d'étiquette</translation>
    </message>
    <message>
        <location filename="../gui/review/review_figures.py" line="1" />
        <source>Overall accuracy</source>
        <translation>Précision globale</translation>
    </message>
    <message>
        <location filename="../gui/review/review_figures.py" line="1" />
        <source>{name}: user's accuracy</source>
        <translation>{name} : précision utilisateur</translation>
    </message>
    <message>
        <location filename="../gui/review/review_figures.py" line="1" />
        <source>{name}: producer's accuracy</source>
        <translation>{name} : précision producteur</translation>
    </message>
    <message>
        <location filename="../gui/review/review_figures.py" line="1" />
        <source>{name}: area</source>
        <translation>{name} : surface</translation>
    </message>
    <message>
        <location filename="../gui/review/review_figures.py" line="1" />
        <source>Figures and intervals</source>
        <translation>Indicateurs et intervalles</translation>
    </message>
    <message>
        <location filename="../gui/review/review_figures.py" line="1" />
        <source>Cohen's kappa</source>
        <translation>kappa de Cohen</translation>
    </message>
    <message>
        <location filename="../gui/review/review_figures.py" line="1" />
        <source>Gwet's AC1</source>
        <translation>AC1 de Gwet</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="1" />
        <source>stratified by class and label</source>
        <translation>stratifié par classe et étiquette</translation>
    </message>
    <message>
        <source>DESIGN=stratified_confidence splits each class by the model's confidence: give CONFIDENCE (the confidence raster flair:segment writes with OUTPUT_CONFIDENCE).</source>
        <translation>DESIGN=stratified_confidence partage chaque classe selon la confiance du modèle : donnez CONFIDENCE (le raster de confiance que flair:segment écrit avec OUTPUT_CONFIDENCE).</translation>
    </message>
    <message>
        <source>DESIGN=stratified_label splits each class by the labels under review: give REFERENCE (the labels).</source>
        <translation>DESIGN=stratified_label partage chaque classe selon les étiquettes à revoir : donnez REFERENCE (les étiquettes).</translation>
    </message>
    <message>
        <source>MIN_PER_CLASS must be at least {lowest} (got {n}): a stratum with no item leaves the review incomplete for ever, and one with a single item has no variance, so its figures get no interval.</source>
        <translation>MIN_PER_CLASS doit valoir au moins {lowest} (reçu {n}) : une strate sans élément laisse la revue incomplète pour toujours, et une strate à un seul élément n'a pas de variance, donc ses chiffres n'ont pas d'intervalle.</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="1" />
        <source>Stratified by class and label needs the labels under review: pick them under Labels.</source>
        <translation>Le plan stratifié par classe et étiquette demande les étiquettes à revoir : choisissez-les sous Étiquettes.</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="1" />
        <source>{n} items for the second interpreter: kappa and AC1 get no interval below {minimum}. Raise the share or the items.</source>
        <translation>{n} éléments pour le second interprète : kappa et AC1 n'ont pas d'intervalle en dessous de {minimum}. Augmentez la part ou le nombre d'éléments.</translation>
    </message>
    <message>
        <location filename="../gui/review/review_create.py" line="1" />
        <source>Min. per class must be at least 2: a class with no item leaves the review incomplete, and one with a single item has no variance, so its figures get no interval.</source>
        <translation>Le min. par classe doit valoir au moins 2 : une classe sans élément laisse la revue incomplète, et une classe à un seul élément n'a pas de variance, donc ses chiffres n'ont pas d'intervalle.</translation>
    </message>
    <message>
        <location filename="../adapters/deps_check.py" line="1" />
        <source>Computing the review's intervals</source>
        <translation>Le calcul des intervalles de la revue</translation>
    </message>
    <message>
        <location filename="../gui/review/review_view.py" line="1" />
        <source>figures once every grid item is reviewed ({n} to go)</source>
        <translation>chiffres une fois tous les points de la grille revus (encore {n})</translation>
    </message>
    <message>
        <source>PRECISION=fp16 runs on CUDA only: this run would use the CPU provider, where half precision is slower. Set PRECISION to fp32, or DEVICE to cuda on a machine with onnxruntime-gpu.</source>
        <translation>PRECISION=fp16 ne fonctionne qu&apos;avec CUDA : ce traitement utiliserait le fournisseur CPU, où la demi-précision est plus lente. Mettez PRECISION à fp32, ou DEVICE à cuda sur une machine avec onnxruntime-gpu.</translation>
    </message>
    <message>
        <source>Half precision (fp16) runs on CUDA only: choose fp32, or a CUDA device.</source>
        <translation>La demi-précision (fp16) ne fonctionne qu&apos;avec CUDA : choisissez fp32, ou un périphérique CUDA.</translation>
    </message>
    <message>
        <source>PRECISION=fp16 agrees with fp32 on {agreement:.2f} % of the pixels of the first tiles (at least {required:.1f} % is required): run this model with PRECISION=fp32.</source>
        <translation>PRECISION=fp16 concorde avec fp32 sur {agreement:.2f} % des pixels des premières tuiles (au moins {required:.1f} % sont requis) : exécutez ce modèle avec PRECISION=fp32.</translation>
    </message>
    <message>
        <source>Half precision agrees with fp32 on {agreement:.2f} % of the pixels of the first tiles (at least {required:.1f} % is required): choose fp32 for this model.</source>
        <translation>La demi-précision concorde avec fp32 sur {agreement:.2f} % des pixels des premières tuiles (au moins {required:.1f} % sont requis) : choisissez fp32 pour ce modèle.</translation>
    </message>
    <message>
        <source>fp32 (full precision)</source>
        <translation>fp32 (pleine précision)</translation>
    </message>
    <message>
        <source>fp16 (CUDA only, checked against fp32)</source>
        <translation>fp16 (CUDA seulement, vérifiée contre fp32)</translation>
    </message>
    <message>
        <source>PRECISION must be fp32 or fp16, got &apos;{}&apos;.</source>
        <translation>PRECISION doit valoir fp32 ou fp16, reçu « {} ».</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="67" />
        <source>No {what} file given.</source>
        <translation>Aucun fichier indiqué ({what}).</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="68" />
        <source>The {what} path {path} is a folder: give a file name ending in .tif.</source>
        <translation>Le chemin {path} ({what}) est un dossier : donnez un nom de fichier se terminant par .tif.</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="69" />
        <source>The folder of the {what} file does not exist: {folder}. Create it or choose another.</source>
        <translation>Le dossier du fichier ({what}) n&apos;existe pas : {folder}. Créez-le ou choisissez-en un autre.</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="70" />
        <source>Cannot write to {folder}: choose a folder you can write to.</source>
        <translation>Impossible d&apos;écrire dans {folder} : choisissez un dossier où vous pouvez écrire.</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="72" />
        <source>{output} would overwrite {input} ({path}): choose another output file.</source>
        <translation>{output} écraserait {input} ({path}) : choisissez un autre fichier de sortie.</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="73" />
        <source>{output} would overwrite {input} ({path}): choose another output folder, outside the input folder.</source>
        <translation>{output} écraserait {input} ({path}) : choisissez un autre dossier de sortie, hors du dossier d&apos;entrée.</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="76" />
        <source>{output} ({output_path}) is inside {input} ({input_path}): its files would be mixed with the input&apos;s files. Choose an output folder outside the input folder.</source>
        <translation>{output} ({output_path}) est dans {input} ({input_path}) : ses fichiers se mêleraient à ceux de l&apos;entrée. Choisissez un dossier de sortie hors du dossier d&apos;entrée.</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="80" />
        <source>{output} writes {sidecar} beside it, which would overwrite {input} ({path}): choose another output file name.</source>
        <translation>{output} écrit {sidecar} à côté de lui, ce qui écraserait {input} ({path}) : choisissez un autre nom de fichier de sortie.</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="84" />
        <source>{second} and {first} are the same file ({path}): one would overwrite the other; choose different output files.</source>
        <translation>{second} et {first} sont le même fichier ({path}) : l&apos;un écraserait l&apos;autre ; choisissez des fichiers de sortie différents.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="14" />
        <source>Model input &apos;{name}&apos; has {channels} channels but its bands select {band_count}.</source>
        <translation>L&apos;entrée « {name} » du modèle a {channels} canaux mais ses bandes en sélectionnent {band_count}.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="15" />
        <source>Model input &apos;{name}&apos; reads band(s) {bad} of {image}, which has {band_count} band(s).</source>
        <translation>L&apos;entrée « {name} » du modèle lit la ou les bandes {bad} de {image}, qui n&apos;a que {band_count} bande(s).</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="18" />
        <source>BANDS lists {bands_count} band(s) but the model expects {channels}: give one layer band per model channel, e.g. BANDS={example}.</source>
        <translation>BANDS donne {bands_count} bande(s) mais le modèle en attend {channels} : donnez une bande de la couche par canal du modèle, par exemple BANDS={example}.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="22" />
        <source>Choose a layer band for model channel(s) {channels}.</source>
        <translation>Choisissez une bande de la couche pour le ou les canaux {channels} du modèle.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="23" />
        <source>BANDS names band(s) {bad} but the raster has {band_count} band(s) (numbered 1..{band_count}).</source>
        <translation>BANDS nomme la ou les bandes {bad} mais le raster a {band_count} bande(s) (numérotées de 1 à {band_count}).</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="26" />
        <source>BANDS must be band numbers separated by commas (e.g. 1,2,3), got {text!r}.</source>
        <translation>BANDS doit être une liste de numéros de bandes séparés par des virgules (par exemple 1,2,3), reçu {text!r}.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="27" />
        <source>Band numbers start at 1, got {text!r}.</source>
        <translation>Les numéros de bandes commencent à 1, reçu {text!r}.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="29" />
        <source>Cannot open raster {path}: {error}</source>
        <translation>Impossible d&apos;ouvrir le raster {path} : {error}</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="31" />
        <source>Rotated rasters are not supported: warp the layer to a north-up grid first.</source>
        <translation>Les rasters tournés ne sont pas pris en charge : rééchantillonnez d&apos;abord la couche sur une grille orientée au nord.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="32" />
        <source>The raster&apos;s geotransform is not north-up (negative pixel size).</source>
        <translation>Le géoréférencement du raster n&apos;est pas orienté au nord (taille de pixel négative).</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="33" />
        <source>The extent is empty: draw or choose an area with a width and a height.</source>
        <translation>L&apos;emprise est vide : dessinez ou choisissez une zone qui a une largeur et une hauteur.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="34" />
        <source>The extent does not intersect the raster layer: pick an area over the imagery (check that the extent is in the layer&apos;s CRS).</source>
        <translation>L&apos;emprise ne recoupe pas la couche raster : choisissez une zone couverte par l&apos;image (vérifiez que l&apos;emprise est dans le SCR de la couche).</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="38" />
        <source>The extent is smaller than one pixel: choose a larger area.</source>
        <translation>L&apos;emprise est plus petite qu&apos;un pixel : choisissez une zone plus grande.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="39" />
        <source>Tile size must be at least {minimum} px, got {tile_size_px}.</source>
        <translation>La taille de tuile doit être d&apos;au moins {minimum} px, reçu {tile_size_px}.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="40" />
        <source>Overlap must be between 0 and {maximum} px for {tile_size_px} px tiles, got {overlap_px}.</source>
        <translation>Le recouvrement doit être compris entre 0 et {maximum} px pour des tuiles de {tile_size_px} px, reçu {overlap_px}.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="42" />
        <source>PRECISION must be one of {choices}, got {precision!r}.</source>
        <translation>PRECISION doit valoir l&apos;une de ces valeurs : {choices} ; reçu {precision!r}.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="43" />
        <source>PRECISION=fp16 needs the onnx package and onnxruntime&apos;s converter ({error}).</source>
        <translation>PRECISION=fp16 demande le paquet onnx et le convertisseur d&apos;onnxruntime ({error}).</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="44" />
        <source>The model cannot be converted to fp16: {error}</source>
        <translation>Le modèle ne peut pas être converti en fp16 : {error}</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="46" />
        <source>The model has no per-pixel output (all its outputs give one value per image): it cannot map an extent. Score it on a dataset with flair:benchmark.</source>
        <translation>Le modèle n&apos;a aucune sortie par pixel (toutes ses sorties donnent une valeur par image) : il ne peut pas cartographier une emprise. Évaluez-le sur un jeu de données avec flair:benchmark.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="50" />
        <source>TILE_SIZE for input {index} ({name}): {length_px} px at the first input&apos;s resolution is {scaled:g} px at this input&apos;s; choose a TILE_SIZE and OVERLAP that give whole pixels for every input.</source>
        <translation>TILE_SIZE pour l&apos;entrée {index} ({name}) : {length_px} px à la résolution de la première entrée font {scaled:g} px à celle de cette entrée ; choisissez un TILE_SIZE et un OVERLAP qui donnent des pixels entiers pour chaque entrée.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="54" />
        <source>The model has a fixed input of {tile_size_px} px: set TILE_SIZE to {tile_size_px} (or leave it empty).</source>
        <translation>Le modèle a une entrée fixe de {tile_size_px} px : réglez TILE_SIZE sur {tile_size_px} (ou laissez-le vide).</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="57" />
        <source>Input {index} ({name}) has a fixed size of {tile_size_px} px, but TILE_SIZE {tile} gives it {own} px: set TILE_SIZE to {suggested}.</source>
        <translation>L&apos;entrée {index} ({name}) a une taille fixe de {tile_size_px} px, mais TILE_SIZE {tile} lui en donne {own} : réglez TILE_SIZE sur {suggested}.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="62" />
        <source>Model metadata key &apos;{metadata_key}&apos; is not valid JSON: {raw!r}</source>
        <translation>La clé de métadonnées du modèle « {metadata_key} » n&apos;est pas du JSON valide : {raw!r}</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="63" />
        <source>Model metadata &apos;{metadata_key}&apos; must be a number or a list of numbers.</source>
        <translation>La métadonnée « {metadata_key} » du modèle doit être un nombre ou une liste de nombres.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="64" />
        <source>Model metadata &apos;{metadata_key}&apos; must hold numbers, got {value!r}.</source>
        <translation>La métadonnée « {metadata_key} » du modèle doit contenir des nombres, reçu {value!r}.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="65" />
        <source>Model metadata &apos;{metadata_key}&apos; has {value_count} values but the model input has {count} channels.</source>
        <translation>La métadonnée « {metadata_key} » du modèle a {value_count} valeurs mais l&apos;entrée du modèle a {count} canaux.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="68" />
        <source>Model metadata &apos;{metadata_key}&apos; keys must be class indices.</source>
        <translation>Les clés de la métadonnée « {metadata_key} » du modèle doivent être des indices de classes.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="69" />
        <source>Model metadata &apos;{metadata_key}&apos; must be a list or an index-&gt;name object.</source>
        <translation>La métadonnée « {metadata_key} » du modèle doit être une liste ou un objet indice-&gt;nom.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="70" />
        <source>Model metadata &apos;{metadata_key}&apos; entry {index} is not a class: {entry!r}</source>
        <translation>L&apos;entrée {index} de la métadonnée « {metadata_key} » du modèle n&apos;est pas une classe : {entry!r}</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="71" />
        <source>Class colour {color!r} in &apos;{metadata_key}&apos; is not of the form #rrggbb.</source>
        <translation>La couleur de classe {color!r} dans « {metadata_key} » n&apos;est pas de la forme #rrggbb.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="72" />
        <source>Model metadata &apos;{metadata_key}&apos; gives the same raster value to two classes.</source>
        <translation>La métadonnée « {metadata_key} » du modèle donne la même valeur raster à deux classes.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="74" />
        <source>Model file not found: {path}</source>
        <translation>Fichier de modèle introuvable : {path}</translation>
    </message>
    <message>
        <location filename="../core/messages.py" line="89" />
        <source>{file} is a PyTorch/pickle file, not ONNX. Convert it with scripts/export-onnx; flair_qgis never loads pickles.</source>
        <translation>{file} est un fichier PyTorch/pickle, pas ONNX. Convertissez-le avec scripts/export-onnx ; flair_qgis ne charge jamais de pickle.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="79" />
        <source>{file} is not a readable ONNX model ({error_type}: {error}).</source>
        <translation>{file} n&apos;est pas un modèle ONNX lisible ({error_type} : {error}).</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="80" />
        <source>Model metadata &apos;inputs&apos; must be a JSON list of objects.</source>
        <translation>La métadonnée « inputs » du modèle doit être une liste JSON d&apos;objets.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="81" />
        <source>The model has no input.</source>
        <translation>Le modèle n&apos;a aucune entrée.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="82" />
        <source>Model input &apos;{name}&apos; has shape {shape}; expected (batch, channels, rows, cols).</source>
        <translation>L&apos;entrée « {name} » du modèle a la forme {shape} ; attendu (lot, canaux, lignes, colonnes).</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="83" />
        <source>Model input &apos;{name}&apos; has no fixed channel count and the metadata names no bands.</source>
        <translation>L&apos;entrée « {name} » du modèle n&apos;a pas de nombre de canaux fixe et les métadonnées ne nomment aucune bande.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="84" />
        <source>Model input &apos;{name}&apos; has {channels} channels but its metadata names {band_count} bands.</source>
        <translation>L&apos;entrée « {name} » du modèle a {channels} canaux mais ses métadonnées nomment {band_count} bandes.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="87" />
        <source>Model input &apos;{name}&apos;: every std must be positive, got {std}.</source>
        <translation>Entrée « {name} » du modèle : chaque écart-type (std) doit être positif, reçu {std}.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="88" />
        <source>Model input &apos;{name}&apos; is {rows}x{cols}; only square tiles are supported.</source>
        <translation>L&apos;entrée « {name} » du modèle fait {rows}x{cols} ; seules les tuiles carrées sont prises en charge.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="89" />
        <source>Model metadata &apos;outputs&apos; must be a JSON list of objects.</source>
        <translation>La métadonnée « outputs » du modèle doit être une liste JSON d&apos;objets.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="90" />
        <source>The model has no output.</source>
        <translation>Le modèle n&apos;a aucune sortie.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="91" />
        <source>Output &apos;{name}&apos;: task {task!r} is not one of {choices}.</source>
        <translation>Sortie « {name} » : la tâche {task!r} n&apos;est pas l&apos;une de {choices}.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="92" />
        <source>Output &apos;{name}&apos;: activation {activation!r} is not one of {choices}.</source>
        <translation>Sortie « {name} » : l&apos;activation {activation!r} n&apos;est pas l&apos;une de {choices}.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="93" />
        <source>Output &apos;{name}&apos; has {channels} channels but its metadata declares {class_count} classes.</source>
        <translation>La sortie « {name} » a {channels} canaux mais ses métadonnées déclarent {class_count} classes.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="97" />
        <source>The model has {input_count} inputs ({names}) but this dataset has one image per sample: use a single-input model or a FLAIR-HUB folder.</source>
        <translation>Le modèle a {input_count} entrées ({names}) mais ce jeu de données a une image par échantillon : utilisez un modèle à une entrée ou un dossier FLAIR-HUB.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="101" />
        <source>Model input &apos;{name}&apos; names no modality: multi-input models must give each input a &apos;modality&apos; (AERIAL_RGBI, DEM_ELEV, SPOT_RGBI...) in the &apos;inputs&apos; metadata.</source>
        <translation>L&apos;entrée « {name} » du modèle ne nomme aucune modalité : un modèle à plusieurs entrées doit donner à chacune une « modality » (AERIAL_RGBI, DEM_ELEV, SPOT_RGBI...) dans la métadonnée « inputs ».</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="105" />
        <source>Model input &apos;{name}&apos; needs modality {modality}, which the dataset does not hold (present: {present}).</source>
        <translation>L&apos;entrée « {name} » du modèle demande la modalité {modality}, absente du jeu de données (présentes : {present}).</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="108" />
        <source>Output &apos;{name}&apos; is a {task} head with a per-pixel shape: declare it as &apos;segmentation&apos; in the &apos;outputs&apos; metadata.</source>
        <translation>La sortie « {name} » est une tête {task} de forme par pixel : déclarez-la « segmentation » dans la métadonnée « outputs ».</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="112" />
        <source>Output &apos;{name}&apos; has shape {shape}; a per-image class head gives (N, classes).</source>
        <translation>La sortie « {name} » a la forme {shape} ; une tête de classe par image donne (N, classes).</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="113" />
        <source>Output &apos;{name}&apos; gives {score_count} scores but declares {class_count} classes.</source>
        <translation>La sortie « {name} » donne {score_count} scores mais déclare {class_count} classes.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="115" />
        <source>Layer &apos;{name}&apos; is not a file: it needs a source made by the QGIS adapters.</source>
        <translation>La couche « {name} » n&apos;est pas un fichier : elle demande une source construite par les adaptateurs QGIS.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="117" />
        <source>The model returns {rows}x{cols} px for {tile_px} px tiles: only outputs centred on their input and smaller by an even number of pixels are supported.</source>
        <translation>Le modèle renvoie {rows}x{cols} px pour des tuiles de {tile_px} px : seules les sorties centrées sur leur entrée et plus petites d&apos;un nombre pair de pixels sont prises en charge.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="121" />
        <source>The model returns {rows}x{cols} px for {tile_px} px tiles (it drops {margin} px on each side): set OVERLAP to at least {minimum} (currently {overlap_px}).</source>
        <translation>Le modèle renvoie {rows}x{cols} px pour des tuiles de {tile_px} px (il retire {margin} px de chaque côté) : réglez OVERLAP à au moins {minimum} (actuellement {overlap_px}).</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="126" />
        <source>DEVICE must be one of {choices}, got {device!r}.</source>
        <translation>DEVICE doit valoir l&apos;une de ces valeurs : {choices} ; reçu {device!r}.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="127" />
        <source>onnxruntime cannot load {file}: {error}</source>
        <translation>onnxruntime ne peut pas charger {file} : {error}</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="46" />
        <source>Output &apos;{name}&apos; gives integers on {channels} channels: a model&apos;s class indices come one per pixel, (N, H, W) or (N, 1, H, W); export the model with its scores or a single argmax.</source>
        <translation>La sortie « {name} » donne des entiers sur {channels} canaux : les indices de classe d’un modèle viennent un par pixel, (N, H, W) ou (N, 1, H, W) ; exportez le modèle avec ses scores ou un seul argmax.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="128" />
        <source>Model graph not fused ({reason}): pixels are normalised and the argmax taken on the host, slower.</source>
        <translation>Graphe du modèle non fusionné ({reason}) : les pixels sont normalisés et l’argmax calculé sur l’hôte, plus lentement.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="128" />
        <source>Model graph not fused: the onnx package is not installed. Installed with onnxruntime (the FLAIR dock&apos;s Install button, or pip install onnx into the same folder), it normalises pixels and takes the argmax in the model&apos;s graph: several times faster on a GPU.</source>
        <translation>Graphe du modèle non fusionné : le paquet onnx n’est pas installé. Installé avec onnxruntime (bouton Installer du panneau FLAIR, ou pip install onnx dans le même dossier), il normalise les pixels et calcule l’argmax dans le graphe du modèle : plusieurs fois plus rapide sur un GPU.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="128" />
        <source>Model graph not fused for output &apos;{name}&apos; (it has no channel count, even after shape inference): its argmax runs on the host, slower.</source>
        <translation>Graphe du modèle non fusionné pour la sortie « {name} » (elle n’a pas de nombre de canaux, même après inférence des formes) : son argmax est calculé sur l’hôte, plus lentement.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="129" />
        <source>Input &apos;{name}&apos; was declared {declared} but its source read {read}.</source>
        <translation>L&apos;entrée « {name} » a été déclarée {declared} mais sa source a lu du {read}.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="131" />
        <source>The model expects {channels} bands but the layer has {band_count}: choose a layer with {channels} bands or set BANDS to map the layer&apos;s bands to the model&apos;s.</source>
        <translation>Le modèle attend {channels} bandes mais la couche n&apos;en a que {band_count} : choisissez une couche à {channels} bandes ou associez avec BANDS les bandes de la couche à celles du modèle.</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="139" />
        <source>PRECISION=fp16 agrees with fp32 on {agreement:.2%} of the pixels of the first tiles (at least {required:.1%} is required): run this model in fp32.</source>
        <translation>PRECISION=fp16 concorde avec fp32 sur {agreement:.2%} des pixels des premières tuiles (au moins {required:.1%} requis) : exécutez ce modèle en fp32.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="14" />
        <source>CLASS_MAP maps to {codes}, which protocol {protocol} does not know (its codes: {classes}).</source>
        <translation>CLASS_MAP renvoie vers {codes}, codes que le protocole {protocol} ne connaît pas (ses codes : {classes}).</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="18" />
        <source>The prediction {path} has no band.</source>
        <translation>La prédiction {path} n&apos;a aucune bande.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="19" />
        <source>No reference given: choose a raster mask or a polygon layer.</source>
        <translation>Aucune référence donnée : choisissez un masque raster ou une couche de polygones.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="21" />
        <source>Suspicious labels are ranked for polygon references only: give a polygon layer.</source>
        <translation>Les étiquettes suspectes ne sont classées que pour une référence en polygones : donnez une couche de polygones.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="25" />
        <source>The confidence raster does not overlap the prediction.</source>
        <translation>Le raster de confiance ne recouvre pas la prédiction.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="27" />
        <source>The {what} holds non-integer values: a class raster must hold whole class values (is it a probability or confidence raster?).</source>
        <translation>La couche ({what}) contient des valeurs non entières : un raster de classes doit contenir des valeurs de classes entières (est-ce un raster de probabilité ou de confiance ?).</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="31" />
        <source>The {what} has data type {dtype}, not class values.</source>
        <translation>La couche ({what}) est de type {dtype}, pas des valeurs de classes.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="32" />
        <source>Reference window {reference} and prediction window {prediction} differ.</source>
        <translation>La fenêtre de référence {reference} et la fenêtre de prédiction {prediction} diffèrent.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="33" />
        <source>The validity mask does not match the window shape.</source>
        <translation>Le masque de validité ne correspond pas à la forme de la fenêtre.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="39" />
        <source>The reference file does not exist: {path}.</source>
        <translation>Le fichier de référence n&apos;existe pas : {path}.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="40" />
        <source>Cannot read {path} as a vector layer ({error}).</source>
        <translation>Impossible de lire {path} comme couche vecteur ({error}).</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="41" />
        <source>The reference is neither a raster nor a polygon layer.</source>
        <translation>La référence n&apos;est ni un raster ni une couche de polygones.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="43" />
        <source>The reference layer holds {kinds} geometries: give a polygon layer (or a raster mask) as reference.</source>
        <translation>La couche de référence contient des géométries {kinds} : donnez comme référence une couche de polygones (ou un masque raster).</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="46" />
        <source>The reference polygons and the prediction are in different CRSs and one is a local CRS that cannot be reprojected: assign the right CRS to the layer.</source>
        <translation>Les polygones de référence et la prédiction sont dans des SCR différents, dont un SCR local qui ne peut pas être reprojeté : attribuez le bon SCR à la couche.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="51" />
        <source>Unknown protocol &apos;{name}&apos;: choose one of {choices}.</source>
        <translation>Protocole inconnu « {name} » : choisissez l&apos;un de {choices}.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="52" />
        <source>Unknown score for absent classes &apos;{absent}&apos;: choose skip (left out of mIoU), one (1.0) or zero (0.0).</source>
        <translation>Score inconnu pour les classes absentes « {absent} » : choisissez skip (exclues du mIoU), one (1,0) ou zero (0,0).</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="55" />
        <source>Evaluated class(es) {classes} are not classes of protocol {protocol} ({codes}).</source>
        <translation>La ou les classes évaluées {classes} ne sont pas des classes du protocole {protocol} ({codes}).</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="56" />
        <source>{setting} must be integers or ranges separated by commas (e.g. 0,13-19), got {text!r}.</source>
        <translation>{setting} doit être une liste d&apos;entiers ou d&apos;intervalles séparés par des virgules (par exemple 0,13-19), reçu {text!r}.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="57" />
        <source>{setting} entries are {form}, got {part!r}.</source>
        <translation>Les entrées de {setting} sont de la forme {form}, reçu {part!r}.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="58" />
        <source>{setting} target must be an integer class value, got {target!r}.</source>
        <translation>La cible de {setting} doit être une valeur de classe entière, reçu {target!r}.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="60" />
        <source>The prediction and the reference are in different CRSs and one of them is a local CRS that cannot be reprojected: assign the right CRS to the layer (e.g. EPSG:2154).</source>
        <translation>La prédiction et la référence sont dans des SCR différents, dont un SCR local qui ne peut pas être reprojeté : attribuez le bon SCR à la couche (par exemple EPSG:2154).</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="64" />
        <source>The {what} file does not exist: {path}.</source>
        <translation>Le fichier n&apos;existe pas ({what}) : {path}.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="65" />
        <source>The {what} {path} is not a raster GDAL can read ({error}).</source>
        <translation>{path} ({what}) n&apos;est pas un raster lisible par GDAL ({error}).</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="67" />
        <source>The {what}&apos;s classes ({declared}) are neither protocol {protocol}&apos;s codes nor its class names ({classes}). Give CLASS_MAP as value:code pairs (e.g. 0:1,1:2) to say which code each value is, or choose the protocol of this model.</source>
        <translation>Les classes de la couche ({what}) ({declared}) ne sont ni les codes ni les noms de classes du protocole {protocol} ({classes}). Donnez CLASS_MAP en paires valeur:code (par exemple 0:1,1:2) pour dire quel code est chaque valeur, ou choisissez le protocole de ce modèle.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="72" />
        <source>No pixel has data in both the prediction and the reference over the area scored: check that they cover the same place (and the extent), and their nodata.</source>
        <translation>Aucun pixel n&apos;a de données à la fois dans la prédiction et dans la référence sur la zone évaluée : vérifiez qu&apos;elles couvrent le même lieu (et l&apos;emprise), et leur nodata.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="82" />
        <source>The prediction and the {what} do not overlap: choose layers (and an extent) covering the same area.</source>
        <translation>La prédiction et la couche ({what}) ne se recouvrent pas : choisissez des couches (et une emprise) couvrant la même zone.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="85" />
        <source>The prediction and the {what} do not overlap within the extent: choose layers (and an extent) covering the same area.</source>
        <translation>La prédiction et la couche ({what}) ne se recouvrent pas dans l&apos;emprise : choisissez des couches (et une emprise) couvrant la même zone.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="14" />
        <source>Dataset folder not found: {root}</source>
        <translation>Dossier du jeu de données introuvable : {root}</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="15" />
        <source>ON_UNPAIRED must be &apos;skip&apos; or &apos;fail&apos;, got {on_unpaired!r}.</source>
        <translation>ON_UNPAIRED doit valoir « skip » ou « fail », reçu {on_unpaired!r}.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="16" />
        <source>No benchmark samples found in {root}. Looked for: FLAIR #1 (IMG_&lt;id&gt;.tif paired with MSK_&lt;id&gt;.tif, e.g. D004_2021/Z6_NU/img/IMG_000473.tif and .../msk/MSK_000473.tif); FLAIR-HUB (per-modality files such as D012-2019_AERIAL_RGBI_AF-S1-27_5-10.tif with D012-2019_AERIAL_LABEL-COSIA_AF-S1-27_5-10.tif); WeedSense (images/&lt;name&gt;.png|jpg|tif, masks/&lt;name&gt;.png, labels.csv).</source>
        <translation>Aucun échantillon de benchmark trouvé dans {root}. Organisations cherchées : FLAIR #1 (IMG_&lt;id&gt;.tif associé à MSK_&lt;id&gt;.tif, par exemple D004_2021/Z6_NU/img/IMG_000473.tif et .../msk/MSK_000473.tif) ; FLAIR-HUB (un fichier par modalité, comme D012-2019_AERIAL_RGBI_AF-S1-27_5-10.tif avec D012-2019_AERIAL_LABEL-COSIA_AF-S1-27_5-10.tif) ; WeedSense (images/&lt;name&gt;.png|jpg|tif, masks/&lt;name&gt;.png, labels.csv).</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="23" />
        <source>Unknown dataset layout {layout!r}: use auto, {choices}.</source>
        <translation>Organisation de jeu de données inconnue {layout!r} : utilisez auto, {choices}.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="24" />
        <source>{count} file(s) in {root} have no partner (ON_UNPAIRED=fail):
{shown}{more}
Add the missing files, remove these, or set ON_UNPAIRED=skip to score the complete samples only.</source>
        <translation>{count} fichier(s) de {root} n&apos;ont pas de partenaire (ON_UNPAIRED=fail) :
{shown}{more}
Ajoutez les fichiers manquants, retirez ceux-ci, ou réglez ON_UNPAIRED=skip pour n&apos;évaluer que les échantillons complets.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="28" />
        <source>No complete {layout} sample in {root}. Looked for: FLAIR #1 (IMG_&lt;id&gt;.tif paired with MSK_&lt;id&gt;.tif, e.g. D004_2021/Z6_NU/img/IMG_000473.tif and .../msk/MSK_000473.tif); FLAIR-HUB (per-modality files such as D012-2019_AERIAL_RGBI_AF-S1-27_5-10.tif with D012-2019_AERIAL_LABEL-COSIA_AF-S1-27_5-10.tif); WeedSense (images/&lt;name&gt;.png|jpg|tif, masks/&lt;name&gt;.png, labels.csv).</source>
        <translation>Aucun échantillon {layout} complet dans {root}. Organisations cherchées : FLAIR #1 (IMG_&lt;id&gt;.tif associé à MSK_&lt;id&gt;.tif, par exemple D004_2021/Z6_NU/img/IMG_000473.tif et .../msk/MSK_000473.tif) ; FLAIR-HUB (un fichier par modalité, comme D012-2019_AERIAL_RGBI_AF-S1-27_5-10.tif avec D012-2019_AERIAL_LABEL-COSIA_AF-S1-27_5-10.tif) ; WeedSense (images/&lt;name&gt;.png|jpg|tif, masks/&lt;name&gt;.png, labels.csv).</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="35" />
        <source>No complete {layout} sample in {root}. Unpaired files: {unpaired}. Looked for: FLAIR #1 (IMG_&lt;id&gt;.tif paired with MSK_&lt;id&gt;.tif, e.g. D004_2021/Z6_NU/img/IMG_000473.tif and .../msk/MSK_000473.tif); FLAIR-HUB (per-modality files such as D012-2019_AERIAL_RGBI_AF-S1-27_5-10.tif with D012-2019_AERIAL_LABEL-COSIA_AF-S1-27_5-10.tif); WeedSense (images/&lt;name&gt;.png|jpg|tif, masks/&lt;name&gt;.png, labels.csv).</source>
        <translation>Aucun échantillon {layout} complet dans {root}. Fichiers sans partenaire : {unpaired}. Organisations cherchées : FLAIR #1 (IMG_&lt;id&gt;.tif associé à MSK_&lt;id&gt;.tif, par exemple D004_2021/Z6_NU/img/IMG_000473.tif et .../msk/MSK_000473.tif) ; FLAIR-HUB (un fichier par modalité, comme D012-2019_AERIAL_RGBI_AF-S1-27_5-10.tif avec D012-2019_AERIAL_LABEL-COSIA_AF-S1-27_5-10.tif) ; WeedSense (images/&lt;name&gt;.png|jpg|tif, masks/&lt;name&gt;.png, labels.csv).</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="42" />
        <source>FLAIR-HUB reference must be one of {choices}, got {label!r}.</source>
        <translation>La référence FLAIR-HUB doit être l&apos;une de {choices}, reçu {label!r}.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="43" />
        <source>No {label} reference file in {root} (found references: {present}): choose the protocol that matches the labels present.</source>
        <translation>Aucun fichier de référence {label} dans {root} (références trouvées : {present}) : choisissez le protocole qui correspond aux étiquettes présentes.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="47" />
        <source>The model needs modality {missing} but {root} holds only {present}.</source>
        <translation>Le modèle demande la modalité {missing} mais {root} ne contient que {present}.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="48" />
        <source>Two images share the name {stem!r} in {image_dir}: keep one.</source>
        <translation>Deux images portent le nom {stem!r} dans {image_dir} : gardez-en une.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="49" />
        <source>{path} lacks column(s) {missing}: it needs a header {columns} (found: {found}).</source>
        <translation>Il manque à {path} la ou les colonnes {missing} : il lui faut un en-tête {columns} (trouvé : {found}).</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="50" />
        <source>{path}, line {line}: height_cm and growth_week must be numbers, got {height!r} and {week!r}.</source>
        <translation>{path}, ligne {line} : height_cm et growth_week doivent être des nombres, reçu {height!r} et {week!r}.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="53" />
        <source>{path}, line {line}: growth_week is a week number 1..11, got {week}.</source>
        <translation>{path}, ligne {line} : growth_week est un numéro de semaine de 1 à 11, reçu {week}.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="54" />
        <source>{path}, line {line}: image {stem!r} is listed twice.</source>
        <translation>{path}, ligne {line} : l&apos;image {stem!r} est listée deux fois.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="56" />
        <source>{name} would overwrite a file of DATASET ({path}): choose another output file.</source>
        <translation>{name} écraserait un fichier de DATASET ({path}) : choisissez un autre fichier de sortie.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="57" />
        <source>Cannot open {path}: {error}</source>
        <translation>Impossible d&apos;ouvrir {path} : {error}</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="58" />
        <source>Output &apos;{name}&apos; has {channels} channels but declares {class_count} classes.</source>
        <translation>La sortie « {name} » a {channels} canaux mais déclare {class_count} classes.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="59" />
        <source>The model has no per-pixel segmentation output ({outputs}): a benchmark scores a class map. Declare the class-map output as task &apos;segmentation&apos; in &apos;outputs&apos;.</source>
        <translation>Le modèle n&apos;a aucune sortie de segmentation par pixel ({outputs}) : un benchmark évalue une carte des classes. Déclarez la sortie carte des classes avec la tâche « segmentation » dans « outputs ».</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="63" />
        <source>Output &apos;{name}&apos; has unit {unit!r}: height must be in cm, m or mm.</source>
        <translation>La sortie « {name} » a l&apos;unité {unit!r} : la hauteur doit être en cm, m ou mm.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="65" />
        <source>The folder for predictions cannot be created: {parent} does not exist.</source>
        <translation>Le dossier des prédictions ne peut pas être créé : {parent} n&apos;existe pas.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="66" />
        <source>onnxruntime failed on samples {ids} (inputs {shapes}): {error}</source>
        <translation>onnxruntime a échoué sur les échantillons {ids} (entrées {shapes}) : {error}</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="67" />
        <source>No sample of {root} could be scored ({failed} failed: {first}).</source>
        <translation>Aucun échantillon de {root} n&apos;a pu être évalué ({failed} en échec : {first}).</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="69" />
        <source>Output &apos;{name}&apos; gives class index {index} but declares {class_count} classes.</source>
        <translation>La sortie « {name} » donne l&apos;indice de classe {index} mais déclare {class_count} classes.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="71" />
        <source>Height values must be finite numbers, got reference {reference} and prediction {prediction}.</source>
        <translation>Les hauteurs doivent être des nombres finis, reçu {reference} en référence et {prediction} en prédiction.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="74" />
        <source>Growth stage {stage} is not one of {first}..{last}.</source>
        <translation>Le stade de croissance {stage} n&apos;est pas compris entre {first} et {last}.</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="75" />
        <source>The same FLAIR #1 patch id occurs twice (remove or move one copy): {duplicates}</source>
        <translation>Le même identifiant de patch FLAIR #1 apparaît deux fois (supprimez ou déplacez une copie) : {duplicates}</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="76" />
        <source>The same FLAIR-HUB patch and modality occur twice: {duplicates}</source>
        <translation>Le même patch et la même modalité FLAIR-HUB apparaissent deux fois : {duplicates}</translation>
    </message>
    <message>
        <location filename="../core/quantize/messages.py" line="14" />
        <source>{file} is not a readable ONNX model: {error}</source>
        <translation>{file} n&apos;est pas un modèle ONNX lisible : {error}</translation>
    </message>
    <message>
        <location filename="../core/quantize/messages.py" line="15" />
        <source>Choose an OUTPUT file for the INT8 model.</source>
        <translation>Choisissez un fichier OUTPUT pour le modèle INT8.</translation>
    </message>
    <message>
        <location filename="../core/quantize/messages.py" line="16" />
        <source>OUTPUT is the FP32 MODEL itself: choose another file for the INT8 model.</source>
        <translation>OUTPUT est le MODEL FP32 lui-même : choisissez un autre fichier pour le modèle INT8.</translation>
    </message>
    <message>
        <location filename="../core/quantize/messages.py" line="17" />
        <source>{name} is already quantised ({evidence}): choose its FP32 model.</source>
        <translation>{name} est déjà quantifié ({evidence}) : choisissez son modèle FP32.</translation>
    </message>
    <message>
        <location filename="../core/quantize/messages.py" line="18" />
        <source>{name} holds operators the INT8 quantiser cannot handle: {operators}. Export the model with standard ONNX operators and no control flow.</source>
        <translation>{name} contient des opérateurs que le quantificateur INT8 ne sait pas traiter : {operators}. Exportez le modèle avec des opérateurs ONNX standard et sans flux de contrôle.</translation>
    </message>
    <message>
        <location filename="../core/quantize/messages.py" line="22" />
        <source>{name} has no Conv, MatMul or Gemm operator: there is nothing to quantise.</source>
        <translation>{name} n&apos;a aucun opérateur Conv, MatMul ou Gemm : il n&apos;y a rien à quantifier.</translation>
    </message>
    <message>
        <location filename="../core/quantize/messages.py" line="23" />
        <source>The model&apos;s Conv nodes have no names: they cannot be kept in FP32.</source>
        <translation>Les nœuds Conv du modèle n&apos;ont pas de nom : ils ne peuvent pas être gardés en FP32.</translation>
    </message>
    <message>
        <location filename="../core/quantize/messages.py" line="24" />
        <source>Static quantisation needs calibration tiles.</source>
        <translation>La quantification statique demande des tuiles de calibration.</translation>
    </message>
    <message>
        <location filename="../core/quantize/messages.py" line="25" />
        <source>onnxruntime&apos;s pre-processing for quantisation failed: {error_type}: {error}</source>
        <translation>Le prétraitement d&apos;onnxruntime pour la quantification a échoué : {error_type} : {error}</translation>
    </message>
    <message>
        <location filename="../core/quantize/messages.py" line="26" />
        <source>METHOD must be one of {choices}, got {method!r}.</source>
        <translation>METHOD doit valoir l&apos;une de ces valeurs : {choices} ; reçu {method!r}.</translation>
    </message>
    <message>
        <location filename="../core/quantize/messages.py" line="27" />
        <source>The calibrator must be one of {choices}, got {calibrator!r}.</source>
        <translation>Le calibreur doit être l&apos;un de {choices}, reçu {calibrator!r}.</translation>
    </message>
    <message>
        <location filename="../core/quantize/messages.py" line="28" />
        <source>onnxruntime&apos;s quantiser failed: {error_type}: {error}</source>
        <translation>Le quantificateur d&apos;onnxruntime a échoué : {error_type} : {error}</translation>
    </message>
    <message>
        <location filename="../core/quantize/messages.py" line="30" />
        <source>The model has {input_count} inputs: quantising is supported for single-input models only.</source>
        <translation>Le modèle a {input_count} entrées : la quantification n&apos;est prise en charge que pour les modèles à une seule entrée.</translation>
    </message>
    <message>
        <location filename="../core/quantize/messages.py" line="34" />
        <source>CALIBRATION_TILES must be at least 1 and VALIDATION_TILES at least 0.</source>
        <translation>CALIBRATION_TILES doit valoir au moins 1 et VALIDATION_TILES au moins 0.</translation>
    </message>
    <message>
        <location filename="../core/quantize/messages.py" line="35" />
        <source>The calibration layers hold no tile.</source>
        <translation>Les couches de calibration ne contiennent aucune tuile.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="14" />
        <source>Class {value} does not fit the reference&apos;s {dtype} cells.</source>
        <translation>La classe {value} ne tient pas dans les cellules {dtype} de la référence.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="15" />
        <source>Reference code &apos;{code}&apos; of the crosswalk cannot be written to the reference raster&apos;s {dtype} cells: give a CROSSWALK whose reference values are the raster&apos;s own numeric values.</source>
        <translation>Le code de référence « {code} » de la table de correspondance ne peut pas être écrit dans les cellules {dtype} du raster de référence : donnez un CROSSWALK dont les valeurs de référence sont les valeurs numériques du raster lui-même.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="16" />
        <source>The {what} does not overlap the prediction: choose layers covering the same area.</source>
        <translation>La couche ({what}) ne recouvre pas la prédiction : choisissez des couches couvrant la même zone.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="17" />
        <source>The suspicious design ranks reference polygons: give REFERENCE as a polygon layer.</source>
        <translation>Le plan « étiquettes suspectes » classe des polygones de référence : donnez REFERENCE sous forme de couche de polygones.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="20" />
        <source>No reference polygon has a scored pixel in the extent: nothing to review.</source>
        <translation>Aucun polygone de référence n&apos;a de pixel évalué dans l&apos;emprise : rien à réviser.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="22" />
        <source>The review was drawn from the reference {recorded}, not from {current} ({differ} differ). Give REFERENCE as the layer the review was sampled from, or sample a new review on this layer.</source>
        <translation>La revue a été tirée de la référence {recorded}, pas de {current} ({differ} diffèrent). Donnez comme REFERENCE la couche sur laquelle la revue a été échantillonnée, ou tirez une nouvelle revue sur cette couche.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="27" />
        <source>Item {item_id} is not marked for a second review (field &apos;double&apos;).</source>
        <translation>L&apos;élément {item_id} n&apos;est pas marqué pour une seconde revue (champ « double »).</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="28" />
        <source>{reviewer} gave the first verdict on item {item_id}: the second review must be another person&apos;s.</source>
        <translation>{reviewer} a donné le premier verdict sur l&apos;élément {item_id} : la seconde revue doit être faite par une autre personne.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="32" />
        <source>The sample is empty: no valid pixel fell on the grid. Raise SAMPLES or widen the extent.</source>
        <translation>L&apos;échantillon est vide : aucun pixel valide n&apos;est tombé sur la grille. Augmentez SAMPLES ou élargissez l&apos;emprise.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="34" />
        <source>DESIGN=stratified_label needs label values below {limit}: choose another design.</source>
        <translation>DESIGN=stratified_label demande des valeurs d&apos;étiquettes inférieures à {limit} : choisissez un autre plan.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="36" />
        <source>The reference layer has no field &apos;{field}&apos;: give the class field (REFERENCE_FIELD).</source>
        <translation>La couche de référence n&apos;a pas de champ « {field} » : donnez le champ des classes (REFERENCE_FIELD).</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="38" />
        <source>Unknown DESIGN &apos;{design}&apos;: use one of {choices}.</source>
        <translation>DESIGN inconnu « {design} » : utilisez l&apos;un de {choices}.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="40" />
        <source>SAMPLES must be at least 1 (got {samples}): give the number of items to review.</source>
        <translation>SAMPLES doit valoir au moins 1 (reçu {samples}) : donnez le nombre d&apos;éléments à réviser.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="42" />
        <source>MIN_PER_CLASS must be at least 2 (got {value}): a stratum with no item leaves the review incomplete for ever, and one with a single item has no variance, so its figures get no interval.</source>
        <translation>MIN_PER_CLASS doit valoir au moins 2 (reçu {value}) : une strate sans élément laisse la revue incomplète pour toujours, et une strate d&apos;un seul élément n&apos;a pas de variance, donc ses chiffres n&apos;ont pas d&apos;intervalle.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="46" />
        <source>DOUBLE_REVIEW is a share of the items from 0 to 1 (got {value}).</source>
        <translation>DOUBLE_REVIEW est une part des éléments, de 0 à 1 (reçu {value}).</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="54" />
        <source>CONFIDENCE_THRESHOLD must be in (0, 1] (got {value}).</source>
        <translation>CONFIDENCE_THRESHOLD doit être dans ]0, 1] (reçu {value}).</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="55" />
        <source>LOW_CONFIDENCE_SHARE must be in [0, 1] (got {value}).</source>
        <translation>LOW_CONFIDENCE_SHARE doit être dans [0, 1] (reçu {value}).</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="57" />
        <source>The prediction has no valid pixel in the extent (all nodata): there is no class to sample. Choose another extent or the class map itself.</source>
        <translation>La prédiction n&apos;a aucun pixel valide dans l&apos;emprise (tout en nodata) : il n&apos;y a aucune classe à échantillonner. Choisissez une autre emprise ou la carte des classes elle-même.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="61" />
        <source>Unknown pixel design &apos;{design}&apos;: use {choices}.</source>
        <translation>Plan par pixel inconnu « {design} » : utilisez {choices}.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="62" />
        <source>DESIGN=stratified_confidence splits each class by the model&apos;s confidence: give CONFIDENCE.</source>
        <translation>DESIGN=stratified_confidence divise chaque classe selon la confiance du modèle : donnez CONFIDENCE.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="65" />
        <source>DESIGN=stratified_label splits each class by the labels: give REFERENCE.</source>
        <translation>DESIGN=stratified_label divise chaque classe selon les étiquettes : donnez REFERENCE.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="67" />
        <source>Unknown verdict &apos;{verdict}&apos;: use one of {choices}.</source>
        <translation>Verdict inconnu « {verdict} » : utilisez l&apos;un de {choices}.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="74" />
        <source>The review file does not exist: {path}. Create one with flair:sample.</source>
        <translation>Le fichier de revue n&apos;existe pas : {path}. Créez-en un avec flair:sample.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="75" />
        <source>{path} is not a GeoPackage ({error}). Open a review GeoPackage made by flair:sample (or create one in the Review tab).</source>
        <translation>{path} n&apos;est pas un GeoPackage ({error}). Ouvrez un GeoPackage de revue créé par flair:sample (ou créez-en un dans l&apos;onglet Revue).</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="79" />
        <source>{path} is not a review GeoPackage: it has no {tables} table. Open a review GeoPackage made by flair:sample (or create one in the Review tab).</source>
        <translation>{path} n&apos;est pas un GeoPackage de revue : il n&apos;a pas de table {tables}. Ouvrez un GeoPackage de revue créé par flair:sample (ou créez-en un dans l&apos;onglet Revue).</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="83" />
        <source>{path} is a GeoPackage of another schema: its layer &apos;review&apos; lacks the fields {fields}. Open a review GeoPackage made by flair:sample (or create one in the Review tab).</source>
        <translation>{path} est un GeoPackage d&apos;un autre schéma : il manque à sa couche « review » les champs {fields}. Ouvrez un GeoPackage de revue créé par flair:sample (ou créez-en un dans l&apos;onglet Revue).</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="87" />
        <source>{path} is a GeoPackage of another schema: its layer &apos;review&apos; lacks the geometry. Open a review GeoPackage made by flair:sample (or create one in the Review tab).</source>
        <translation>{path} est un GeoPackage d&apos;un autre schéma : sa couche « review » n&apos;a pas de géométrie. Ouvrez un GeoPackage de revue créé par flair:sample (ou créez-en un dans l&apos;onglet Revue).</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="91" />
        <source>The review has no item {item_id}.</source>
        <translation>La revue n&apos;a pas d&apos;élément {item_id}.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="92" />
        <source>The review file {path} stayed locked by another program for {seconds:g} s ({error}); the verdict was not saved: try again.</source>
        <translation>Le fichier de revue {path} est resté verrouillé par un autre programme pendant {seconds:g} s ({error}) ; le verdict n&apos;a pas été enregistré : réessayez.</translation>
    </message>
    <message>
        <location filename="../core/segment/messages.py" line="14" />
        <source>With a tile cache the output grid must lie on the layer&apos;s pixel grid at the model&apos;s resolution.</source>
        <translation>Avec un cache de tuiles, la grille de sortie doit s&apos;aligner sur la grille de pixels de la couche à la résolution du modèle.</translation>
    </message>
    <message>
        <location filename="../core/segment/messages.py" line="18" />
        <source>Output &apos;{name}&apos; predicts class index {index} but the model declares {class_count} classes: fix its &apos;classes&apos; metadata.</source>
        <translation>La sortie « {name} » prédit l&apos;indice de classe {index} mais le modèle déclare {class_count} classes : corrigez sa métadonnée « classes ».</translation>
    </message>
    <message>
        <location filename="../core/segment/messages.py" line="22" />
        <source>Regression output &apos;{name}&apos; has {channels} channels per pixel; one is expected.</source>
        <translation>La sortie de régression « {name} » a {channels} canaux par pixel ; un seul est attendu.</translation>
    </message>
    <message>
        <location filename="../core/segment/messages.py" line="24" />
        <source>The mask has no polygon: choose or select the polygons that bound the run.</source>
        <translation>Le masque n&apos;a aucun polygone : choisissez ou sélectionnez les polygones qui délimitent le calcul.</translation>
    </message>
    <message>
        <location filename="../core/segment/messages.py" line="25" />
        <source>The selected polygons have no area.</source>
        <translation>Les polygones sélectionnés n&apos;ont aucune surface.</translation>
    </message>
    <message>
        <location filename="../core/segment/messages.py" line="27" />
        <source>The model has {input_count} inputs ({names}) but {layer_count} layer(s) were given.</source>
        <translation>Le modèle a {input_count} entrées ({names}) mais {layer_count} couche(s) ont été données.</translation>
    </message>
    <message>
        <location filename="../core/segment/messages.py" line="28" />
        <source>Input {index}, {title}: {error}</source>
        <translation>Entrée {index}, {title} : {error}</translation>
    </message>
    <message>
        <location filename="../core/segment/messages.py" line="29" />
        <source>The extent and the mask polygons do not overlap: choose polygons inside the extent.</source>
        <translation>L&apos;emprise et les polygones du masque ne se recouvrent pas : choisissez des polygones dans l&apos;emprise.</translation>
    </message>
    <message>
        <location filename="../core/segment/messages.py" line="31" />
        <source>onnxruntime failed on a tile: {error}</source>
        <translation>onnxruntime a échoué sur une tuile : {error}</translation>
    </message>
    <message>
        <location filename="../core/segment/messages.py" line="37" />
        <source>The model has {input_count} inputs ({titles}): choose a raster layer for each.</source>
        <translation>Le modèle a {input_count} entrées ({titles}) : choisissez une couche raster pour chacune.</translation>
    </message>
    <message>
        <location filename="../core/vectorize/messages.py" line="14" />
        <source>CLASSES must list class values separated by commas, e.g. 1,3; got &apos;{text}&apos;.</source>
        <translation>CLASSES doit lister des valeurs de classes séparées par des virgules, par exemple 1,3 ; reçu « {text} ».</translation>
    </message>
    <message>
        <location filename="../core/vectorize/messages.py" line="15" />
        <source>OUTPUT is the {setting} raster itself: choose another output file.</source>
        <translation>OUTPUT est le raster {setting} lui-même : choisissez un autre fichier de sortie.</translation>
    </message>
    <message>
        <location filename="../core/vectorize/messages.py" line="16" />
        <source>{setting} must be 0 or more, got {value}.</source>
        <translation>{setting} doit valoir 0 ou plus, reçu {value}.</translation>
    </message>
    <message>
        <location filename="../core/vectorize/messages.py" line="17" />
        <source>PREDICTION {file} holds continuous values ({dtype}), not classes: give a class map of integer values (e.g. the OUTPUT of flair:segment).</source>
        <translation>PREDICTION {file} contient des valeurs continues ({dtype}), pas des classes : donnez une carte des classes en valeurs entières (par exemple l&apos;OUTPUT de flair:segment).</translation>
    </message>
    <message>
        <location filename="../core/vectorize/messages.py" line="21" />
        <source>CONFIDENCE {file} is not on the class map&apos;s grid: give the confidence raster written with that class map.</source>
        <translation>CONFIDENCE {file} n&apos;est pas sur la grille de la carte des classes : donnez le raster de confiance écrit avec cette carte des classes.</translation>
    </message>
    <message>
        <location filename="../core/vectorize/messages.py" line="24" />
        <source>OUTPUT {path} is a folder: give a file name such as predictions.gpkg.</source>
        <translation>OUTPUT {path} est un dossier : donnez un nom de fichier comme predictions.gpkg.</translation>
    </message>
    <message>
        <location filename="../core/vectorize/messages.py" line="25" />
        <source>{setting} raster not found: {path}. Choose an existing raster file.</source>
        <translation>Raster {setting} introuvable : {path}. Choisissez un fichier raster existant.</translation>
    </message>
    <message>
        <location filename="../core/vectorize/messages.py" line="26" />
        <source>{setting} {file} cannot be read as a raster: {error}</source>
        <translation>{setting} {file} ne peut pas être lu comme raster : {error}</translation>
    </message>
    <message>
        <location filename="../core/vectorize/messages.py" line="28" />
        <source>PREDICTION has more than {limit:,} distinct values: it is not a class map. Give a raster of class values (e.g. the OUTPUT of flair:segment), or classify it first.</source>
        <translation>PREDICTION a plus de {limit:,} valeurs distinctes : ce n&apos;est pas une carte des classes. Donnez un raster de valeurs de classes (par exemple l&apos;OUTPUT de flair:segment), ou classez-le d&apos;abord.</translation>
    </message>
    <message>
        <location filename="../core/vectorize/messages.py" line="33" />
        <source>Cannot write polygons to &apos;{file}&apos;: give a file ending in {extensions}.</source>
        <translation>Impossible d&apos;écrire les polygones dans « {file} » : donnez un fichier se terminant par {extensions}.</translation>
    </message>
    <message>
        <location filename="../core/vectorize/messages.py" line="35" />
        <source>Output &apos;{name}&apos; is a value map, not classes: it has no polygons.</source>
        <translation>La sortie « {name} » est une carte de valeurs, pas de classes : elle n&apos;a pas de polygones.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="98" />
        <source>CSV report</source>
        <translation>rapport CSV</translation>
    </message>
    <message>
        <location filename="../core/quantize/messages.py" line="39" />
        <source>INT8 model</source>
        <translation>modèle INT8</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="94" />
        <source>class map</source>
        <translation>carte des classes</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="103" />
        <source>class values</source>
        <translation>valeurs de classes</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="99" />
        <source>confidence raster</source>
        <translation>raster de confiance</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="99" />
        <source>confusion picture</source>
        <translation>image de la matrice de confusion</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="100" />
        <source>error map</source>
        <translation>carte des erreurs</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="102" />
        <source>model</source>
        <translation>modèle</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="81" />
        <source>no header</source>
        <translation>aucun en-tête</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="80" />
        <source>no input modality</source>
        <translation>aucune modalité d&apos;entrée</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="147" />
        <source>output</source>
        <translation>sortie</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="83" />
        <source>per-sample CSV</source>
        <translation>CSV par échantillon</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="93" />
        <source>prediction</source>
        <translation>prédiction</translation>
    </message>
    <message>
        <location filename="../core/quantize/messages.py" line="38" />
        <source>quantization metadata</source>
        <translation>métadonnées de quantification</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="101" />
        <source>ranked labels</source>
        <translation>étiquettes classées</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="96" />
        <source>raster</source>
        <translation>raster</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="98" />
        <source>reference</source>
        <translation>référence</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="92" />
        <source>reference polygons</source>
        <translation>polygones de référence</translation>
    </message>
    <message>
        <location filename="../core/benchmark/messages.py" line="82" />
        <source>report</source>
        <translation>rapport</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="100" />
        <source>review GeoPackage</source>
        <translation>GeoPackage de revue</translation>
    </message>
    <message>
        <location filename="../core/engine/messages.py" line="145" />
        <source>the image</source>
        <translation>l&apos;image</translation>
    </message>
    <message>
        <location filename="../core/segment/messages.py" line="41" />
        <source>tile values</source>
        <translation>valeurs par tuile</translation>
    </message>
    <message>
        <location filename="../adapters/charts.py" line="103" />
        <source>Cannot write the confusion-matrix picture {path}.</source>
        <translation>Impossible d&apos;écrire l&apos;image de la matrice de confusion {path}.</translation>
    </message>
    <message>
        <location filename="../adapters/deps_install.py" line="243" />
        <source>The installation was stopped.</source>
        <translation>L&apos;installation a été arrêtée.</translation>
    </message>
    <message>
        <location filename="../adapters/deps_install.py" line="247" />
        <source>pip could not install {package} (exit code {code}):
{output}

Run this command in a terminal instead:
{command}</source>
        <translation>pip n&apos;a pas pu installer {package} (code de sortie {code}) :
{output}

Lancez plutôt cette commande dans un terminal :
{command}</translation>
    </message>
    <message>
        <location filename="../adapters/deps_install.py" line="230" />
        <source>Could not start pip ({error}). Run this command in a terminal:
{command}</source>
        <translation>Impossible de lancer pip ({error}). Lancez cette commande dans un terminal :
{command}</translation>
    </message>
    <message>
        <location filename="../adapters/mask_input.py" line="45" />
        <source>The mask polygons have no geometry: choose polygons that bound the run.</source>
        <translation>Les polygones du masque n&apos;ont pas de géométrie : choisissez des polygones qui délimitent le calcul.</translation>
    </message>
    <message>
        <location filename="../adapters/mask_input.py" line="56" />
        <source>Choose a polygon layer whose selected polygons bound the run.</source>
        <translation>Choisissez une couche de polygones dont les polygones sélectionnés délimitent le calcul.</translation>
    </message>
    <message>
        <location filename="../adapters/mask_input.py" line="60" />
        <source>No polygon is selected in &apos;{name}&apos;: select the areas to segment first.</source>
        <translation>Aucun polygone n&apos;est sélectionné dans « {name} » : sélectionnez d&apos;abord les zones à segmenter.</translation>
    </message>
    <message>
        <location filename="../adapters/mask_input.py" line="65" />
        <source>The selected features of &apos;{name}&apos; have no geometry.</source>
        <translation>Les entités sélectionnées de « {name} » n&apos;ont pas de géométrie.</translation>
    </message>
    <message>
        <location filename="../adapters/raster_input.py" line="121" />
        <source>The input raster layer is not valid: check that its source can be read.</source>
        <translation>La couche raster d&apos;entrée n&apos;est pas valide : vérifiez que sa source peut être lue.</translation>
    </message>
    <message>
        <location filename="../adapters/raster_input.py" line="171" />
        <source>Layer &apos;{name}&apos; is a web/database layer in another CRS than the first input: save it to a GeoTIFF in that CRS (Raster &gt; Projections &gt; Warp) and use the file.</source>
        <translation>La couche « {name} » est une couche web ou de base de données dans un autre SCR que la première entrée : enregistrez-la en GeoTIFF dans ce SCR (Raster &gt; Projections &gt; Projection (warp)) et utilisez le fichier.</translation>
    </message>
    <message>
        <location filename="../adapters/raster_input.py" line="149" />
        <source>Layer &apos;{name}&apos; has no native resolution and the model declares none: set the model&apos;s resolution in its metadata or use a file-based layer.</source>
        <translation>La couche « {name} » n&apos;a pas de résolution native et le modèle n&apos;en déclare aucune : indiquez la résolution du modèle dans ses métadonnées ou utilisez une couche fichier.</translation>
    </message>
    <message>
        <location filename="../adapters/raster_input.py" line="220" />
        <source>Layer &apos;{name}&apos; returned no readable data for band {band}.</source>
        <translation>La couche « {name} » n&apos;a renvoyé aucune donnée lisible pour la bande {band}.</translation>
    </message>
    <message>
        <location filename="../adapters/reference_input.py" line="225" />
        <source>The layer &apos;{name}&apos; ({provider}) cannot be opened: check the connection (host, port, database, user, table) and that the server is running; QGIS&apos;s message log (PostGIS tab) says what the server answered.</source>
        <translation>La couche « {name} » ({provider}) ne peut pas être ouverte : vérifiez la connexion (hôte, port, base, utilisateur, table) et que le serveur est démarré ; le journal des messages de QGIS (onglet PostGIS) donne la réponse du serveur.</translation>
    </message>
    <message>
        <location filename="../adapters/reference_input.py" line="241" />
        <source>REFERENCE is not a layer QGIS can open: give a raster mask or a polygon layer.</source>
        <translation>REFERENCE n&apos;est pas une couche que QGIS peut ouvrir : donnez un masque raster ou une couche de polygones.</translation>
    </message>
    <message>
        <location filename="../adapters/reference_input.py" line="247" />
        <source>The reference layer &apos;{name}&apos; is neither a raster nor a polygon layer.</source>
        <translation>La couche de référence « {name} » n&apos;est ni un raster ni une couche de polygones.</translation>
    </message>
    <message>
        <location filename="../adapters/reference_input.py" line="50" />
        <source>The {what} is not a raster layer QGIS can open.</source>
        <translation>La couche choisie comme {what} n&apos;est pas un raster que QGIS peut ouvrir.</translation>
    </message>
    <message>
        <location filename="../adapters/reference_input.py" line="54" />
        <source>The {what} layer &apos;{name}&apos; is not a raster file (web or database layer): save it as GeoTIFF first (Export &gt; Save As).</source>
        <translation>La couche « {name} » choisie comme {what} n&apos;est pas un fichier raster (couche web ou de base de données) : enregistrez-la d&apos;abord en GeoTIFF (Exporter &gt; Enregistrer sous).</translation>
    </message>
    <message>
        <location filename="../adapters/reference_input.py" line="71" />
        <source>The reference layer &apos;{name}&apos; holds {kind} geometries: give a polygon layer or a raster mask.</source>
        <translation>La couche de référence « {name} » contient des géométries {kind} : donnez une couche de polygones ou un masque raster.</translation>
    </message>
    <message>
        <location filename="../adapters/segment_request.py" line="152" />
        <source>Choose an ONNX model.</source>
        <translation>Choisissez un modèle ONNX.</translation>
    </message>
    <message>
        <location filename="../adapters/segment_request.py" line="177" />
        <source>Choose an input raster layer.</source>
        <translation>Choisissez une couche raster en entrée.</translation>
    </message>
    <message>
        <location filename="../adapters/segment_request.py" line="179" />
        <source>Layer &apos;{name}&apos; cannot be read.</source>
        <translation>La couche « {name} » ne peut pas être lue.</translation>
    </message>
    <message>
        <location filename="../adapters/segment_request.py" line="204" />
        <source>The input raster layer is not in the project any more: choose another.</source>
        <translation>La couche raster d&apos;entrée n&apos;est plus dans le projet : choisissez-en une autre.</translation>
    </message>
    <message>
        <location filename="../adapters/segment_request.py" line="224" />
        <source>Draw a rectangle on the map first.</source>
        <translation>Dessinez d&apos;abord un rectangle sur la carte.</translation>
    </message>
    <message>
        <location filename="../adapters/segment_request.py" line="224" />
        <source>The map view has no extent.</source>
        <translation>La vue de la carte n&apos;a pas d&apos;emprise.</translation>
    </message>
    <message>
        <location filename="../adapters/segment_request.py" line="166" />
        <source>Input {index}, {title}: {reason}</source>
        <translation>Entrée {index}, {title} : {reason}</translation>
    </message>
    <message>
        <location filename="../adapters/segment_request.py" line="219" />
        <source>Unknown extent mode {mode!r}.</source>
        <translation>Mode d&apos;emprise inconnu {mode!r}.</translation>
    </message>
    <message>
        <location filename="../adapters/segment_request.py" line="163" />
        <source>Choose a raster layer for input {index}, {title}.</source>
        <translation>Choisissez une couche raster pour l&apos;entrée {index}, {title}.</translation>
    </message>
    <message>
        <location filename="../adapters/segment_request.py" line="200" />
        <source>No raster layer for input {index}, {title}, in the project: choose one.</source>
        <translation>Aucune couche raster pour l&apos;entrée {index}, {title}, dans le projet : choisissez-en une.</translation>
    </message>
    <message>
        <location filename="../processing/segment_scheduler.py" line="61" />
        <source>OUTPUT_CONFIDENCE is not written by distributed runs: leave it or SCHEDULER empty.</source>
        <translation>OUTPUT_CONFIDENCE n&apos;est pas écrit par les calculs distribués : laissez-le vide, ou SCHEDULER.</translation>
    </message>
    <message>
        <location filename="../processing/segment_scheduler.py" line="54" />
        <source>Layer &apos;{name}&apos; is not a file: SCHEDULER needs a raster every worker can open (GeoTIFF, VRT, /vsicurl/ COG). Save the layer to a file, or leave SCHEDULER empty.</source>
        <translation>La couche « {name} » n&apos;est pas un fichier : SCHEDULER demande un raster que chaque worker peut ouvrir (GeoTIFF, VRT, COG /vsicurl/). Enregistrez la couche dans un fichier, ou laissez SCHEDULER vide.</translation>
    </message>
    <message>
        <location filename="../processing/segment_scheduler.py" line="96" />
        <source>{count} chunk(s) failed ({listed}); see {path}. Fix the cause and run again with the same OUTPUT to compute only them.</source>
        <translation>{count} bloc(s) en échec ({listed}) ; voir {path}. Corrigez la cause et relancez avec le même OUTPUT pour ne calculer qu&apos;eux.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="17" />
        <source>--chunk-tiles must be at least 1, got {chunk_tiles}.</source>
        <translation>--chunk-tiles doit valoir au moins 1 ; reçu {chunk_tiles}.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="19" />
        <source>Dask distributed is not installed in this Python: install it with `python3 -m pip install &apos;dask[distributed]&apos;` (the project&apos;s `make setup` does), or run without a scheduler.</source>
        <translation>Dask distributed n&apos;est pas installé dans ce Python : installez-le avec `python3 -m pip install &apos;dask[distributed]&apos;` (le `make setup` du projet le fait), ou lancez sans ordonnanceur.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="24" />
        <source>SCHEDULER local:N needs a number of workers N &gt;= 1, got {text!r}.</source>
        <translation>SCHEDULER local:N demande un nombre de workers N &gt;= 1 ; reçu {text!r}.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="25" />
        <source>SCHEDULER must be empty, local:N or an address like tcp://host:8786, got {text!r}.</source>
        <translation>SCHEDULER doit être vide, local:N ou une adresse comme tcp://hote:8786 ; reçu {text!r}.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="26" />
        <source>--gpus needs an NVIDIA GPU, and nvidia-smi lists none on this machine: drop --gpus to run on the CPU, or run where `nvidia-smi -L` answers.</source>
        <translation>--gpus demande un GPU NVIDIA, et nvidia-smi n&apos;en liste aucun sur cette machine : retirez --gpus pour calculer sur le CPU, ou lancez là où `nvidia-smi -L` répond.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="30" />
        <source>--gpus must be &apos;all&apos; or distinct GPU indices among {available} (nvidia-smi -L), got {text!r}.</source>
        <translation>--gpus doit valoir &apos;all&apos; ou des numéros de GPU distincts parmi {available} (nvidia-smi -L) ; reçu {text!r}.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="31" />
        <source>Cannot reach the Dask scheduler at {scheduler} within {seconds} s ({reason}): check the address and that `dask scheduler` runs there, or drop --scheduler for a local cluster.</source>
        <translation>Impossible de joindre l&apos;ordonnanceur Dask {scheduler} en {seconds} s ({reason}) : vérifiez l&apos;adresse et que `dask scheduler` y tourne, ou retirez --scheduler pour un cluster local.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="35" />
        <source>The Dask scheduler at {scheduler} has no worker: start some with `dask worker {scheduler}` on machines that see the input and the model.</source>
        <translation>L&apos;ordonnanceur Dask {scheduler} n&apos;a aucun worker : lancez-en avec `dask worker {scheduler}` sur des machines qui voient l&apos;image et le modèle.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="39" />
        <source>{workers}. Install onnxruntime, rasterio and this project on every worker (or put it on the workers&apos; PYTHONPATH) and restart them.</source>
        <translation>{workers}. Installez onnxruntime, rasterio et ce projet sur chaque worker (ou mettez-le dans leur PYTHONPATH) et redémarrez-les.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="43" />
        <source>The workers are not pinned one per GPU ({seen}; expected {expected}): check that nothing overrides CUDA_VISIBLE_DEVICES in the workers.</source>
        <translation>Les workers ne sont pas attachés chacun à un GPU ({seen} ; attendu {expected}) : vérifiez que rien ne remplace CUDA_VISIBLE_DEVICES dans les workers.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="48" />
        <source>--output-dir {folder} is a file: give a folder (new or holding an earlier run).</source>
        <translation>--output-dir {folder} est un fichier : indiquez un dossier (nouveau, ou contenant un calcul antérieur).</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="49" />
        <source>--output-dir {folder} is a link to {target}, which does not exist: create that folder or give another --output-dir.</source>
        <translation>--output-dir {folder} est un lien vers {target}, qui n&apos;existe pas : créez ce dossier ou indiquez un autre --output-dir.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="53" />
        <source>Cannot create --output-dir {folder} ({reason}): give a folder you can write to.</source>
        <translation>Impossible de créer --output-dir {folder} ({reason}) : indiquez un dossier où vous pouvez écrire.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="54" />
        <source>The output folder {folder} holds other files ({entries}) and no {manifest}: choose a new or empty folder (nothing was changed).</source>
        <translation>Le dossier de sortie {folder} contient d&apos;autres fichiers ({entries}) et pas de {manifest} : choisissez un dossier nouveau ou vide (rien n&apos;a été modifié).</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="58" />
        <source>{path} cannot be read ({reason}): remove it or choose another folder.</source>
        <translation>{path} est illisible ({reason}) : supprimez-le ou choisissez un autre dossier.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="59" />
        <source>{path} is not a flair run manifest: choose a new or empty folder.</source>
        <translation>{path} n&apos;est pas un manifeste de calcul flair : choisissez un dossier nouveau ou vide.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="60" />
        <source>Input file {file}{more} changed since the run in {folder} started: its chunks would mix old and new pixels. Give --force to recompute every chunk, or restore the file.</source>
        <translation>Le fichier d&apos;entrée {file}{more} a changé depuis le début du calcul dans {folder} : ses blocs mêleraient anciens et nouveaux pixels. Donnez --force pour recalculer tous les blocs, ou restaurez le fichier.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="64" />
        <source>The output folder {folder} holds a run with {differences}: its chunks would not match. Give --force (scripts/flair) to discard it and start again, run with the same options, or choose another folder (another OUTPUT in flair:segment).</source>
        <translation>Le dossier de sortie {folder} contient un calcul dont {differences} : ses blocs ne correspondraient pas. Donnez --force (scripts/flair) pour l&apos;abandonner et recommencer, relancez avec les mêmes options, ou choisissez un autre dossier (une autre OUTPUT dans flair:segment).</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="70" />
        <source>GDAL could not build the mosaic {path}: {reason}</source>
        <translation>GDAL n&apos;a pas pu construire la mosaïque {path} : {reason}</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="72" />
        <source>The model has {inputs} inputs: distributed runs take one input raster; run it in-process (no scheduler).</source>
        <translation>Le modèle a {inputs} entrées : les calculs distribués prennent un seul raster d&apos;entrée ; lancez-le dans ce processus (sans ordonnanceur).</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="75" />
        <source>CACHE is not used by distributed runs (they resume by chunk): leave CACHE or SCHEDULER empty.</source>
        <translation>Les calculs distribués n&apos;utilisent pas CACHE (ils reprennent bloc par bloc) : laissez CACHE ou SCHEDULER vide.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="78" />
        <source>A MASK is not applied by distributed runs yet: leave MASK or SCHEDULER empty.</source>
        <translation>Les calculs distribués n&apos;appliquent pas encore de MASK : laissez MASK ou SCHEDULER vide.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="79" />
        <source>The model file {path} does not exist.</source>
        <translation>Le fichier de modèle {path} n&apos;existe pas.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="80" />
        <source>Cannot open the input raster {path}: {reason}</source>
        <translation>Impossible d&apos;ouvrir le raster d&apos;entrée {path} : {reason}</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="82" />
        <source>{flag} must be 0 or more, got {value:g}.</source>
        <translation>{flag} doit valoir 0 ou plus ; reçu {value:g}.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="83" />
        <source>--vector {path} is a folder: give a file name such as predictions.gpkg.</source>
        <translation>--vector {path} est un dossier : indiquez un nom de fichier, par exemple predictions.gpkg.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="84" />
        <source>Cannot read the chunk polygons {path} ({reason}): delete it and run again.</source>
        <translation>Impossible de lire les polygones du bloc {path} ({reason}) : supprimez-le et relancez.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="86" />
        <source>Worker {host} sees another file at {path} than the one the run was planned with: give every worker the same model file.</source>
        <translation>Le worker {host} voit en {path} un autre fichier que celui avec lequel le calcul a été préparé : donnez à chaque worker le même fichier de modèle.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="91" />
        <source>--workers must be at least 1, got {workers}.</source>
        <translation>--workers doit valoir au moins 1 ; reçu {workers}.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="92" />
        <source>--gpus runs one worker per GPU: drop --device cpu, or drop --gpus to run on the CPU.</source>
        <translation>--gpus lance un worker par GPU : retirez --device cpu, ou retirez --gpus pour calculer sur le CPU.</translation>
    </message>
    <message>
        <location filename="../scale/messages.py" line="93" />
        <source>--vector-min-area, --vector-simplify and --vector-fill-holes need --vector PATH.gpkg.</source>
        <translation>--vector-min-area, --vector-simplify et --vector-fill-holes demandent --vector CHEMIN.gpkg.</translation>
    </message>
    <message>
        <location filename="../processing/describe_algorithm.py" line="1" />
        <source>Bands, one per model band (e.g. R,G,B,NIR,ELEV or 4,1,2)</source>
        <translation>Bandes, une par bande du modèle (par ex. R,G,B,NIR,ELEV ou 4,1,2)</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>Choose an OUTPUT file for the described copy of the model.</source>
        <translation>Choisissez un fichier OUTPUT pour la copie décrite du modèle.</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>Class entry {entry!r} is not value:name or value:name:#rrggbb (e.g. 1:building:#db0e9a).</source>
        <translation>La classe {entry!r} n'est ni valeur:nom ni valeur:nom:#rrvvbb (par ex. 1:bâtiment:#db0e9a).</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>Class value {value} is given twice: give each class value once.</source>
        <translation>La valeur de classe {value} est donnée deux fois : donnez chaque valeur une seule fois.</translation>
    </message>
    <message>
        <location filename="../gui/segment/describe_dialog.py" line="1" />
        <source>Classes (value:name:#colour)</source>
        <translation>Classes (valeur:nom:#couleur)</translation>
    </message>
    <message>
        <location filename="../processing/describe_algorithm.py" line="1" />
        <source>Classes: value:name:#rrggbb,... or a CSV file (value,name,color)</source>
        <translation>Classes : valeur:nom:#rrvvbb,... ou un fichier CSV (value,name,color)</translation>
    </message>
    <message>
        <location filename="../processing/describe_algorithm.py" line="1" />
        <source>Describe ONNX model (bands, normalisation, classes)</source>
        <translation>Décrire un modèle ONNX (bandes, normalisation, classes)</translation>
    </message>
    <message>
        <location filename="../gui/segment/describe_dialog.py" line="1" />
        <source>Describe this model</source>
        <translation>Décrire ce modèle</translation>
    </message>
    <message>
        <location filename="../gui/segment/segment_panel.py" line="1" />
        <source>Describing a model</source>
        <translation>La description d&apos;un modèle</translation>
    </message>
    <message>
        <location filename="../gui/segment/model_section.py" line="1" />
        <source>Describe this model…</source>
        <translation>Décrire ce modèle…</translation>
    </message>
    <message>
        <location filename="../processing/describe_algorithm.py" line="1" />
        <source>Described copy of the model</source>
        <translation>Copie décrite du modèle</translation>
    </message>
    <message>
        <location filename="../processing/describe_algorithm.py" line="1" />
        <source>Described copy written to {path}: {bands} band(s), {classes} class(es); {original} is unchanged.</source>
        <translation>Copie décrite écrite dans {path} : {bands} bande(s), {classes} classe(s) ; {original} est inchangé.</translation>
    </message>
    <message>
        <location filename="../gui/segment/segment_panel.py" line="1" />
        <source>Described copy written to {path}; {name} is unchanged.</source>
        <translation>Copie décrite écrite dans {path} ; {name} est inchangé.</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>Give MEAN and STD together (both in the layer's pixel units).</source>
        <translation>Donnez MEAN et STD ensemble (tous deux dans les unités de pixel de la couche).</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>Give either SCALE or MEAN and STD, not both.</source>
        <translation>Donnez soit SCALE, soit MEAN et STD, pas les deux.</translation>
    </message>
    <message>
        <location filename="../gui/segment/model_section.py" line="1" />
        <source>Give the model its bands, normalisation and classes, in a copy written beside it</source>
        <translation>Donner au modèle ses bandes, sa normalisation et ses classes, dans une copie écrite à côté</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="1" />
        <source>Guessed, the model does not declare them: {what}. Describe this model to set them.</source>
        <translation>Devinées, le modèle ne les déclare pas : {what}. Décrivez ce modèle pour les fixer.</translation>
    </message>
    <message>
        <location filename="../gui/segment/describe_dialog.py" line="1" />
        <source>Mean (pixel units)</source>
        <translation>Moyenne (unités de pixel)</translation>
    </message>
    <message>
        <location filename="../processing/describe_algorithm.py" line="1" />
        <source>Mean per band, layer pixel units (e.g. 105.08,110.87,101.82)</source>
        <translation>Moyenne par bande, en unités de pixel de la couche (par ex. 105.08,110.87,101.82)</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>Nothing to describe: pick a PRESET or give BANDS, MEAN and STD (or SCALE), CLASSES, RESOLUTION_CM or TILE_SIZE.</source>
        <translation>Rien à décrire : choisissez un PRESET ou donnez BANDS, MEAN et STD (ou SCALE), CLASSES, RESOLUTION_CM ou TILE_SIZE.</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>OUTPUT is the model itself: the original is never changed; choose another file for the described copy.</source>
        <translation>OUTPUT est le modèle lui-même : l'original n'est jamais modifié ; choisissez un autre fichier pour la copie décrite.</translation>
    </message>
    <message>
        <location filename="../gui/segment/describe_dialog.py" line="1" />
        <source>Or divide by</source>
        <translation>Ou diviser par</translation>
    </message>
    <message>
        <location filename="../processing/describe_algorithm.py" line="1" />
        <source>Or scale: pixels are divided by it (e.g. 255)</source>
        <translation>Ou échelle : les pixels sont divisés par elle (par ex. 255)</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>PRESET must be one of {choices}, got {preset!r}.</source>
        <translation>PRESET doit être l'un de {choices}, reçu {preset!r}.</translation>
    </message>
    <message>
        <location filename="../gui/segment/describe_dialog.py" line="1" />
        <source>Preset</source>
        <translation>Préréglage</translation>
    </message>
    <message>
        <location filename="../processing/describe_algorithm.py" line="1" />
        <source>Resolution (cm per pixel)</source>
        <translation>Résolution (cm par pixel)</translation>
    </message>
    <message>
        <location filename="../gui/segment/describe_dialog.py" line="1" />
        <source>Resolution (cm)</source>
        <translation>Résolution (cm)</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>SCALE must be a positive number (pixels are divided by it), got {scale}.</source>
        <translation>SCALE doit être un nombre positif (les pixels sont divisés par lui), reçu {scale}.</translation>
    </message>
    <message>
        <location filename="../processing/describe_algorithm.py" line="1" />
        <source>SHA-256 of the described copy</source>
        <translation>SHA-256 de la copie décrite</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>STD must be positive for every band, got {std}.</source>
        <translation>STD doit être positif pour chaque bande, reçu {std}.</translation>
    </message>
    <message>
        <location filename="../processing/describe_algorithm.py" line="1" />
        <source>Standard deviation per band, layer pixel units</source>
        <translation>Écart type par bande, en unités de pixel de la couche</translation>
    </message>
    <message>
        <location filename="../gui/segment/describe_dialog.py" line="1" />
        <source>Std (pixel units)</source>
        <translation>Écart type (unités de pixel)</translation>
    </message>
    <message>
        <location filename="../gui/segment/describe_dialog.py" line="1" />
        <source>Tile size (px)</source>
        <translation>Taille des tuiles (px)</translation>
    </message>
    <message>
        <location filename="../processing/describe_algorithm.py" line="1" />
        <source>Tile size (px, 0: not declared)</source>
        <translation>Taille des tuiles (px, 0 : non déclarée)</translation>
    </message>
    <message>
        <location filename="../gui/segment/describe_dialog.py" line="1" />
        <source>Write the described copy</source>
        <translation>Écrire la copie décrite</translation>
    </message>
    <message>
        <location filename="../processing/describe_algorithm.py" line="1" />
        <source>Writes a copy of an ONNX model that declares what flair:segment needs to know: its bands, normalisation, classes, resolution and tile size. A model without them runs on a guess (pixels / 255, classes 0..C-1). The original file is never changed.

PRESET fills everything for a FLAIR model family; the typed values replace the preset's:
{presets}

BANDS: band names (R,G,B,NIR,ELEV) or numbers (4,1,2), one per model band. MEAN and STD: per band, in the layer's pixel units (0..255 for 8-bit imagery); or SCALE alone: pixels are divided by it. CLASSES: value:name:#rrggbb entries separated by commas (1:building:#db0e9a,2:water:#1553ae), or a CSV file with the columns value, name and color. RESOLUTION_CM: the training resolution. TILE_SIZE: the tile edge in pixels (0: not declared).

The counts are checked against the model: one value per input band, one class per output channel.</source>
        <translation>Écrit une copie d'un modèle ONNX qui déclare ce que flair:segment doit savoir : ses bandes, sa normalisation, ses classes, sa résolution et sa taille de tuile. Un modèle qui ne les déclare pas tourne sur une supposition (pixels / 255, classes 0..C-1). Le fichier original n'est jamais modifié.

PRESET remplit tout pour une famille de modèles FLAIR ; les valeurs saisies remplacent celles du préréglage :
{presets}

BANDS : noms de bandes (R,G,B,NIR,ELEV) ou numéros (4,1,2), un par bande du modèle. MEAN et STD : par bande, dans les unités de pixel de la couche (0..255 pour une image 8 bits) ; ou SCALE seul : les pixels sont divisés par lui. CLASSES : entrées valeur:nom:#rrvvbb séparées par des virgules (1:bâtiment:#db0e9a,2:eau:#1553ae), ou un fichier CSV aux colonnes value, name et color. RESOLUTION_CM : la résolution d'entraînement. TILE_SIZE : le côté des tuiles en pixels (0 : non déclaré).

Les nombres sont vérifiés sur le modèle : une valeur par bande d'entrée, une classe par canal de sortie.</translation>
    </message>
    <message>
        <location filename="../gui/segment/describe_dialog.py" line="1" />
        <source>Writes {file}</source>
        <translation>Écrit {file}</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="1" />
        <source>classes ({first}..{last})</source>
        <translation>classes ({first}..{last})</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>described model</source>
        <translation>modèle décrit</translation>
    </message>
    <message>
        <location filename="../gui/segment/describe_dialog.py" line="1" />
        <source>none (typed values)</source>
        <translation>aucun (valeurs saisies)</translation>
    </message>
    <message>
        <location filename="../gui/widgets.py" line="1" />
        <source>normalisation (pixels / 255)</source>
        <translation>normalisation (pixels / 255)</translation>
    </message>
    <message>
        <location filename="../gui/segment/describe_dialog.py" line="1" />
        <source>not declared</source>
        <translation>non déclarée</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>{file} has {channels} output channel(s) but {count} class(es) were given: give one class per output channel, or a preset with {channels} classes.</source>
        <translation>{file} a {channels} canal(aux) de sortie mais {count} classe(s) ont été données : donnez une classe par canal de sortie, ou un préréglage à {channels} classes.</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>{file} has {count} inputs: describing is supported for single-input models only (give their metadata when exporting them).</source>
        <translation>{file} a {count} entrées : seuls les modèles à une entrée peuvent être décrits (donnez leurs métadonnées à l'export).</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>{file} is too large to copy into one ONNX file ({megabytes} MB, 2 GB at most): describing models stored with external data above 2 GB is not supported.</source>
        <translation>{file} est trop gros pour être copié dans un seul fichier ONNX ({megabytes} Mo, 2 Go au plus) : décrire un modèle à données externes de plus de 2 Go n'est pas pris en charge.</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>{file} takes tiles of {fixed} px only (its input size is fixed): TILE_SIZE {tile} does not fit; leave it empty or give {fixed}.</source>
        <translation>{file} ne prend que des tuiles de {fixed} px (sa taille d'entrée est fixe) : TILE_SIZE {tile} ne convient pas ; laissez-le vide ou donnez {fixed}.</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>{file} takes {channels} band(s) but {what} has {count} value(s): give one value per model band.</source>
        <translation>{file} prend {channels} bande(s) mais {what} a {count} valeur(s) : donnez une valeur par bande du modèle.</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>{model} declares neither its normalisation nor its classes: this run guesses pixels / 255 and classes {first}..{last}. Describe the model once (flair:describe_model, or 'Describe this model…' on the dock's model card).</source>
        <translation>{model} ne déclare ni sa normalisation ni ses classes : ce calcul suppose pixels / 255 et les classes {first}..{last}. Décrivez le modèle une fois (flair:describe_model, ou « Décrire ce modèle… » sur la fiche du modèle du panneau).</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>{model} declares no classes: this run guesses classes {first}..{last}, named 'class N'. Describe the model once (flair:describe_model, or 'Describe this model…' on the dock's model card).</source>
        <translation>{model} ne déclare pas ses classes : ce calcul suppose les classes {first}..{last}, nommées « class N ». Décrivez le modèle une fois (flair:describe_model, ou « Décrire ce modèle… » sur la fiche du modèle du panneau).</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>{model} declares no normalisation: this run guesses pixels / 255. Describe the model once (flair:describe_model, or 'Describe this model…' on the dock's model card).</source>
        <translation>{model} ne déclare pas sa normalisation : ce calcul suppose pixels / 255. Décrivez le modèle une fois (flair:describe_model, ou « Décrire ce modèle… » sur la fiche du modèle du panneau).</translation>
    </message>
    <message>
        <location filename="../gui/segment/describe_dialog.py" line="1" />
        <source>{name} declares no normalisation or classes. Pick a preset or type them; a copy is written beside it.</source>
        <translation>{name} ne déclare pas sa normalisation ou ses classes. Choisissez un préréglage ou saisissez-les ; une copie est écrite à côté.</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>{path} is not a class table: it needs a header with columns value and name (and optionally color).</source>
        <translation>{path} n'est pas une table de classes : il lui faut un en-tête avec les colonnes value et name (et éventuellement color).</translation>
    </message>
    <message>
        <location filename="../core/describe/messages.py" line="1" />
        <source>{what} must be numbers separated by commas (e.g. 105.08,110.87,101.82), got {text!r}.</source>
        <translation>{what} doit être des nombres séparés par des virgules (par ex. 105.08,110.87,101.82), reçu {text!r}.</translation>
    </message>
    <message>
        <location filename="../core/review/messages.py" line="93" />
        <source>The review GeoPackage names a table or field &apos;{name}&apos;, which the plugin does not read: use letters, digits and _ only, or open a review GeoPackage made by flair:sample.</source>
        <translation>Le GeoPackage de revue nomme une table ou un champ « {name} », que l&apos;extension ne lit pas : n&apos;utilisez que des lettres, des chiffres et _, ou ouvrez un GeoPackage de revue créé par flair:sample.</translation>
    </message>
    <message>
        <location filename="../adapters/deps_plan.py" line="1" />
        <source>FLAIR needs the Python package(s) {names}, which this QGIS does not have.</source>
        <translation>FLAIR a besoin du ou des paquets Python {names}, que ce QGIS n&apos;a pas.</translation>
    </message>
    <message>
        <location filename="../adapters/deps_plan.py" line="1" />
        <source>Install {packages} with pip?
From: {source}
Download: {size}
Into: {target} (used only by this plugin)
With: {python}</source>
        <translation>Installer {packages} avec pip ?
Depuis : {source}
Téléchargement : {size}
Dans : {target} (utilisé par cette extension seulement)
Avec : {python}</translation>
    </message>
    <message>
        <location filename="../adapters/deps_plan.py" line="1" />
        <source>The Python interpreter of this QGIS was not found next to it, so the plugin cannot run pip. Open a terminal and run this command (on macOS the interpreter is inside QGIS.app, as shown), then restart QGIS:
{command}</source>
        <translation>L&apos;interpréteur Python de ce QGIS n&apos;a pas été trouvé à côté de lui : l&apos;extension ne peut pas lancer pip. Ouvrez un terminal et lancez cette commande (sous macOS l&apos;interpréteur est dans QGIS.app, comme indiqué), puis redémarrez QGIS :
{command}</translation>
    </message>
    <message>
        <location filename="../adapters/deps_plan.py" line="1" />
        <source>The Python of this QGIS was not found next to it. Run this command in a terminal:
{command}</source>
        <translation>Le Python de ce QGIS n&apos;a pas été trouvé à côté de lui. Lancez cette commande dans un terminal :
{command}</translation>
    </message>
    <message>
        <location filename="../adapters/deps_plan.py" line="1" />
        <source>about {mb} MB</source>
        <translation>environ {mb} Mo</translation>
    </message>
    <message>
        <location filename="../adapters/deps_plan.py" line="1" />
        <source>onnxruntime is installed but its DLL did not load inside QGIS ({error}). This is the clash of onnxruntime issue 26127: QGIS loads an older Microsoft C++ runtime (msvcp140.dll) before onnxruntime. Install the latest Microsoft Visual C++ Redistributable 2015-2022 (x64) from https://aka.ms/vs/17/release/vc_redist.x64.exe and restart QGIS; if QGIS still ships the older copy, update QGIS, or install an onnxruntime built with the older runtime:
{command}</source>
        <translation>onnxruntime est installé mais sa DLL ne se charge pas dans QGIS ({error}). C&apos;est le conflit du ticket 26127 d&apos;onnxruntime : QGIS charge un runtime C++ de Microsoft (msvcp140.dll) plus ancien avant onnxruntime. Installez le dernier Microsoft Visual C++ Redistributable 2015-2022 (x64) depuis https://aka.ms/vs/17/release/vc_redist.x64.exe et redémarrez QGIS ; si QGIS livre encore l&apos;ancienne copie, mettez QGIS à jour, ou installez un onnxruntime compilé avec l&apos;ancien runtime :
{command}</translation>
    </message>
    <message>
        <location filename="../adapters/deps_plan.py" line="1" />
        <source>onnxruntime {version} is older than the {minimum} the plugin needs</source>
        <translation>onnxruntime {version} est plus ancien que la version {minimum} dont l&apos;extension a besoin</translation>
    </message>
    <message>
        <location filename="../adapters/deps_plan.py" line="1" />
        <source>{index} through the proxy {proxy}</source>
        <translation>{index} par le proxy {proxy}</translation>
    </message>
    <message>
        <location filename="../adapters/deps_plan.py" line="1" />
        <source>{size}, most of it NVIDIA&apos;s CUDA and cuDNN wheels for the GPU</source>
        <translation>{size}, surtout les paquets CUDA et cuDNN de NVIDIA pour le GPU</translation>
    </message>
    <message>
        <location filename="../processing/evaluate_algorithm.py" line="61" />
        <source>Scores a class-map raster against a reference: a raster mask (any CRS or resolution, aligned with nearest neighbour) or polygons with a class field (rasterised at pixel centres). Writes a JSON report (mIoU, OA, per-class IoU/precision/recall/F1/support, confusion matrix), a CSV of per-class figures and a PNG of the row-normalised confusion matrix next to it, and optionally an error map.

PROTOCOL: flair1 (codes 13..19 regrouped to &apos;other&apos;, mIoU over 1..12, absent classes skipped), flairhub-landcover (15 classes, 15..18 dropped, absent = 0), flairhub-croptype (5 and 9 dropped, absent = 0), weedsense (17 classes, 255 ignored, absent = 1.0), custom (REMAP e.g. 13-19:13, CLASSES, EVALUATED_CLASSES). IGNORE_CLASSES: values never counted. ABSENT_CLASS_SCORE overrides what a class absent from both sides counts as.

Nodata on either side is not counted. Values the protocol does not declare stop the run with their list.

CROSSWALK: a CSV with the header reference,class, one line per value of the reference (text such as OCS GE&apos;s CS2.1.1.1, or numbers) and the class it counts as (value or name). Values it does not list are not scored; the report names them under &apos;crosswalk&apos;.</source>
        <translation>Évalue un raster de classes par rapport à une référence : un masque raster (tout SCR ou résolution, aligné au plus proche voisin) ou des polygones avec un champ de classe (rastérisés aux centres des pixels). Écrit un rapport JSON (mIoU, OA, IoU/précision/rappel/F1/effectif par classe, matrice de confusion), à côté un CSV des chiffres par classe et un PNG de la matrice de confusion normalisée par ligne, et en option une carte des erreurs.

PROTOCOL : flair1 (codes 13..19 regroupés en « autre », mIoU sur 1..12, classes absentes ignorées), flairhub-landcover (15 classes, 15..18 exclues, absente = 0), flairhub-croptype (5 et 9 exclues, absente = 0), weedsense (17 classes, 255 ignoré, absente = 1.0), custom (REMAP par ex. 13-19:13, CLASSES, EVALUATED_CLASSES). IGNORE_CLASSES : valeurs jamais comptées. ABSENT_CLASS_SCORE remplace ce que vaut une classe absente des deux côtés.

Les pixels sans donnée d&apos;un côté ou de l&apos;autre ne sont pas comptés. Des valeurs que le protocole ne déclare pas arrêtent le traitement, avec leur liste.

CROSSWALK : un CSV d&apos;en-tête reference,class, une ligne par valeur de la référence (du texte comme CS2.1.1.1 de l&apos;OCS GE, ou des nombres) et la classe qu&apos;elle représente (valeur ou nom). Les valeurs absentes ne sont pas évaluées ; le rapport les nomme sous « crosswalk ».</translation>
    </message>
    <message>
        <location filename="../processing/rank_labels_algorithm.py" line="51" />
        <source>Writes the reference polygons to a GeoPackage ordered from most to least suspicious, each with its label, the model&apos;s majority class, the share of its pixels where model and label agree (agreement), the pixels scored and, with a CONFIDENCE raster, the model&apos;s mean confidence. suspicion = (1 - agreement) x mean confidence (x 1 without confidence).

Equal suspicions are ordered by the area in disagreement (disagreeing_px).

PROTOCOL regroups values before comparing (flair1: 13..19 -&gt; 13); custom uses REMAP. A class map whose values are not the protocol&apos;s codes is aligned by class name; CLASS_MAP gives the mapping explicitly. CROSSWALK (CSV reference,class) says which class each value of a text field counts as; the output then keeps the reference&apos;s own code in reference_code.</source>
        <translation>Écrit les polygones de référence dans un GeoPackage, du plus suspect au moins suspect, chacun avec son étiquette, la classe majoritaire du modèle, la part de ses pixels où modèle et étiquette s&apos;accordent (accord), les pixels évalués et, avec un raster CONFIDENCE, la confiance moyenne du modèle. suspicion = (1 - accord) x confiance moyenne (x 1 sans confiance).

À suspicion égale, la plus grande surface en désaccord passe d&apos;abord (disagreeing_px).

PROTOCOL regroupe les valeurs avant la comparaison (flair1 : 13..19 -&gt; 13) ; custom utilise REMAP. Une carte des classes dont les valeurs ne sont pas les codes du protocole est alignée par nom de classe ; CLASS_MAP donne la correspondance explicitement. CROSSWALK (CSV reference,class) dit à quelle classe correspond chaque valeur d&apos;un champ texte ; la sortie garde alors le code propre à la référence dans reference_code.</translation>
    </message>
    <message>
        <source>Writes a corrected copy of the reference: each raster cell under an item reviewed &apos;correct&apos; or &apos;wrong&apos; takes the item&apos;s true class where it differs. A polygon takes a new class only when the items in it agree; items that disagree are listed in the log and in table &apos;conflicts&apos; and the polygon is left unchanged. An item whose point is outside its source_fid polygon is refused. A raster reference gives a GeoTIFF; polygons give a GeoPackage keeping every field plus &apos;label_before&apos; and &apos;review_items&apos;. Unsure items change nothing. REFERENCE must be the layer the review was sampled from. The original reference and the review are never modified.

A reference coded in its own nomenclature is written back in its own codes, through CROSSWALK (default: the crosswalk the review was drawn with). Where several codes count as the class decided, the code the verdict names is written (the adjudicated one where there is one); a verdict naming none leaves the polygon or cell unchanged and listed.</source>
        <translation>Écrit une copie corrigée de la référence : chaque cellule raster sous un élément revu « correct » ou « wrong » prend la vraie classe de l&apos;élément là où elle diffère. Un polygone ne prend une nouvelle classe que si ses éléments concordent ; des éléments en désaccord sont listés dans le journal et dans la table « conflicts », et le polygone reste inchangé. Un élément dont le point est hors de son polygone source_fid est refusé. Une référence raster donne un GeoTIFF ; des polygones donnent un GeoPackage qui garde tous les champs plus « label_before » et « review_items ». Les éléments incertains ne changent rien. REFERENCE doit être la couche sur laquelle la revue a été échantillonnée. La référence d&apos;origine et la revue ne sont jamais modifiées.

Une référence codée dans sa propre nomenclature est réécrite dans ses propres codes, via CROSSWALK (par défaut : la table de correspondance avec laquelle la revue a été tirée). Là où plusieurs codes correspondent à la classe décidée, le code nommé par le verdict est écrit (celui de l&apos;arbitrage s&apos;il y en a un) ; un verdict qui n&apos;en nomme aucun laisse le polygone ou la cellule inchangé et listé.</translation>
    </message>
    <message>
        <location filename="../processing/review_report_algorithm.py" line="34" />
        <source>Reads a review GeoPackage (flair:sample, verdicts from the Review tab) and writes a JSON report and a per-class CSV beside it: label-error rate (overall and per label class) and map accuracy (overall, user&apos;s and producer&apos;s accuracy, area proportions, area in ha) with 95 % intervals that follow the sampling design: stratified estimators (Olofsson et al. 2014, Stehman 2014) for the stratified design, Wilson intervals for random and grid samples, counts only for the suspicious design (not a probability sample). Items marked unsure are left out and counted. With CROSSWALK (default: the crosswalk the review was drawn with) the report adds the verdicts per reference code.</source>
        <translation>Lit un GeoPackage de revue (flair:sample, verdicts de l&apos;onglet Revue) et écrit un rapport JSON et un CSV par classe à côté : taux d&apos;erreur des étiquettes (global et par classe d&apos;étiquette) et précision de la carte (globale, utilisateur et producteur, proportions de surface, surface en ha) avec des intervalles à 95 % qui suivent le plan d&apos;échantillonnage : estimateurs stratifiés (Olofsson et al. 2014, Stehman 2014) pour le plan stratifié, intervalles de Wilson pour les échantillons aléatoire et en grille, simples comptes pour le plan « suspicious » (pas un échantillon probabiliste). Les éléments marqués incertains sont écartés et comptés. Avec CROSSWALK (par défaut : la table de correspondance avec laquelle la revue a été tirée), le rapport ajoute les verdicts par code de la référence.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="35" />
        <source>Field &apos;{field}&apos; holds values that are not class values ({values}{more}): give CROSSWALK, a CSV reference,class saying which class each value counts as, or choose the field that holds the integer class codes.</source>
        <translation>Le champ « {field} » contient des valeurs qui ne sont pas des valeurs de classes ({values}{more}) : donnez CROSSWALK, un CSV reference,class qui dit à quelle classe correspond chaque valeur, ou choisissez le champ qui contient les codes de classes entiers.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="35" />
        <source>Cannot read the crosswalk {path} ({error}): give a UTF-8 CSV file.</source>
        <translation>Impossible de lire la table de correspondance {path} ({error}) : donnez un fichier CSV en UTF-8.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="35" />
        <source>The crosswalk {name} starts with &apos;{header}&apos;: its first line must be the header reference,class.</source>
        <translation>La table de correspondance {name} commence par « {header} » : sa première ligne doit être l&apos;en-tête reference,class.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="35" />
        <source>Line {line} of the crosswalk {name} does not hold a reference value and a class: write value,class.</source>
        <translation>La ligne {line} de la table de correspondance {name} ne contient pas une valeur de référence et une classe : écrivez valeur,classe.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="35" />
        <source>The crosswalk {name} gives two classes to the value &apos;{value}&apos;: keep one line for it.</source>
        <translation>La table de correspondance {name} donne deux classes à la valeur « {value} » : gardez une seule ligne pour elle.</translation>
    </message>
    <message>
        <location filename="../core/score/messages.py" line="35" />
        <source>The crosswalk {name} names the class &apos;{target}&apos;, which is neither a class value nor a class name (the classes: {classes}).</source>
        <translation>La table de correspondance {name} nomme la classe « {target} », qui n&apos;est ni une valeur ni un nom de classe (les classes : {classes}).</translation>
    </message>
    <message>
        <location filename="../processing/scoring_params.py" line="1" />
        <source>Crosswalk CSV (reference,class): the class each reference value counts as (text codes)</source>
        <translation>Table de correspondance CSV (reference,class) : la classe de chaque valeur de la référence (codes texte)</translation>
    </message>
    <message>
        <location filename="../processing/scoring_params.py" line="1" />
        <source>Crosswalk {file} (sha256 {sha}).</source>
        <translation>Table de correspondance {file} (sha256 {sha}).</translation>
    </message>
    <message>
        <location filename="../processing/scoring_params.py" line="1" />
        <source>Reference value &apos;{value}&apos; is not in the crosswalk: {pixels} px ({share} of the extent) not scored.</source>
        <translation>La valeur de référence « {value} » n&apos;est pas dans la table de correspondance : {pixels} px ({share} de l&apos;emprise) non évalués.</translation>
    </message>
    <message>
        <location filename="../processing/apply_review_algorithm.py" line="1" />
        <source>several reference codes count as the class decided and no verdict names one</source>
        <translation>plusieurs codes de la référence correspondent à la classe décidée et aucun verdict n&apos;en nomme un</translation>
    </message>
    <message>
        <location filename="../processing/apply_review_algorithm.py" line="1" />
        <source>its items name different reference codes</source>
        <translation>ses éléments nomment des codes de référence différents</translation>
    </message>
    <message>
        <location filename="../processing/apply_review_algorithm.py" line="1" />
        <source>the reference code named does not count as the class decided</source>
        <translation>le code de référence nommé ne correspond pas à la classe décidée</translation>
    </message>
    <message>
        <location filename="../processing/apply_review_algorithm.py" line="1" />
        <source>no reference code counts as the class decided</source>
        <translation>aucun code de la référence ne correspond à la classe décidée</translation>
    </message>
    <message>
        <location filename="../adapters/crosswalk_project.py" line="1" />
        <source>FLAIR: reading the values of {field}</source>
        <translation>FLAIR : lecture des valeurs de {field}</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/crosswalk_dialog.py" line="1" />
        <source>Crosswalk: {field}</source>
        <translation>Table de correspondance : {field}</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/crosswalk_dialog.py" line="1" />
        <source>Reading the field&apos;s values in the map view…</source>
        <translation>Lecture des valeurs du champ dans la vue de la carte…</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/crosswalk_dialog.py" line="1" />
        <source>Features</source>
        <translation>Entités</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/crosswalk_dialog.py" line="1" />
        <source>Load CSV…</source>
        <translation>Charger un CSV…</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/crosswalk_dialog.py" line="1" />
        <source>Save CSV…</source>
        <translation>Enregistrer en CSV…</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/crosswalk_dialog.py" line="1" />
        <source>{n} values over {features} features in the map view.</source>
        <translation>{n} valeurs sur {features} entités dans la vue de la carte.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/crosswalk_dialog.py" line="1" />
        <source>not scored</source>
        <translation>non évalué</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/crosswalk_dialog.py" line="1" />
        <source>Load crosswalk</source>
        <translation>Charger une table de correspondance</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/crosswalk_dialog.py" line="1" />
        <source>Save crosswalk</source>
        <translation>Enregistrer la table de correspondance</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/crosswalk_dialog.py" line="1" />
        <source>CSV (*.csv)</source>
        <translation>CSV (*.csv)</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_layers.py" line="1" />
        <source>Crosswalk…</source>
        <translation>Correspondance…</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_layers.py" line="1" />
        <source>Which model class each value of the class field counts as (text codes, another nomenclature)</source>
        <translation>La classe du modèle que représente chaque valeur du champ de classe (codes texte, autre nomenclature)</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_layers.py" line="1" />
        <source>Text codes: say which class each value counts as.</source>
        <translation>Codes texte : dites à quelle classe correspond chaque valeur.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_layers.py" line="1" />
        <source>Crosswalk: {n} values scored; the others are not.</source>
        <translation>Correspondance : {n} valeurs évaluées ; les autres ne le sont pas.</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="1" />
        <source>, and {n} more</source>
        <translation>, et {n} autres</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_scores.py" line="1" />
        <source>Not scored (not in the crosswalk): {values}</source>
        <translation>Non évalué (absent de la correspondance) : {values}</translation>
    </message>
    <message>
        <location filename="../gui/review/review_codes.py" line="1" />
        <source>Reference code</source>
        <translation>Code de la référence</translation>
    </message>
    <message>
        <location filename="../gui/review/review_codes.py" line="1" />
        <source>which one?</source>
        <translation>lequel ?</translation>
    </message>
    <message>
        <location filename="../i18n/errors.py" line="1" />
        <source>Field &apos;{field}&apos; holds values that are not class values ({values}{more}): click Crosswalk… under the class field to say which class each value counts as, or choose the field that holds the class codes.</source>
        <translation>Le champ « {field} » contient des valeurs qui ne sont pas des valeurs de classes ({values}{more}) : cliquez sur Correspondance… sous le champ de classe pour dire à quelle classe correspond chaque valeur, ou choisissez le champ qui contient les codes de classes.</translation>
    </message>
    <message>
        <location filename="../i18n/errors.py" line="1" />
        <source>Click Crosswalk… under the class field to say which class each of these values counts as, or pick the protocol of these layers under &apos;Protocol&apos;.</source>
        <translation>Cliquez sur Correspondance… sous le champ de classe pour dire à quelle classe correspond chacune de ces valeurs, ou choisissez le protocole de ces couches sous « Protocole ».</translation>
    </message>
    <message>
        <location filename="../gui/evaluate/qa_layers.py" line="1" />
        <source>Values that are not the model&apos;s classes: say which class each counts as.</source>
        <translation>Valeurs qui ne sont pas des classes du modèle : dites à quelle classe correspond chacune.</translation>
    </message>
</context>
</TS>
