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
        <location filename="../processing/evaluate_algorithm.py" line="61" />
        <source>Scores a class-map raster against a reference: a raster mask (any CRS or resolution, aligned with nearest neighbour) or polygons with a class field (rasterised at pixel centres). Writes a JSON report (mIoU, OA, per-class IoU/precision/recall/F1/support, confusion matrix), a CSV of per-class figures and a PNG of the row-normalised confusion matrix next to it, and optionally an error map.

PROTOCOL: flair1 (codes 13..19 regrouped to 'other', mIoU over 1..12, absent classes skipped), flairhub-landcover (15 classes, 15..18 dropped, absent = 0), flairhub-croptype (5 and 9 dropped, absent = 0), weedsense (17 classes, 255 ignored, absent = 1.0), custom (REMAP e.g. 13-19:13, CLASSES, EVALUATED_CLASSES). IGNORE_CLASSES: values never counted. ABSENT_CLASS_SCORE overrides what a class absent from both sides counts as.

Nodata on either side is not counted. Values the protocol does not declare stop the run with their list.</source>
        <translation>Évalue un raster de classes par rapport à une référence : un masque raster (tout SCR ou résolution, aligné au plus proche voisin) ou des polygones avec un champ de classe (rastérisés aux centres des pixels). Écrit un rapport JSON (mIoU, OA, IoU/précision/rappel/F1/effectif par classe, matrice de confusion), à côté un CSV des chiffres par classe et un PNG de la matrice de confusion normalisée par ligne, et en option une carte des erreurs.

PROTOCOL : flair1 (codes 13..19 regroupés en « autre », mIoU sur 1..12, classes absentes ignorées), flairhub-landcover (15 classes, 15..18 exclues, absente = 0), flairhub-croptype (5 et 9 exclues, absente = 0), weedsense (17 classes, 255 ignoré, absente = 1.0), custom (REMAP par ex. 13-19:13, CLASSES, EVALUATED_CLASSES). IGNORE_CLASSES : valeurs jamais comptées. ABSENT_CLASS_SCORE remplace ce que vaut une classe absente des deux côtés.

Les pixels sans donnée d'un côté ou de l'autre ne sont pas comptés. Des valeurs que le protocole ne déclare pas arrêtent le traitement, avec leur liste.</translation>
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
        <location filename="../processing/rank_labels_algorithm.py" line="51" />
        <source>Writes the reference polygons to a GeoPackage ordered from most to least suspicious, each with its label, the model's majority class, the share of its pixels where model and label agree (agreement), the pixels scored and, with a CONFIDENCE raster, the model's mean confidence. suspicion = (1 - agreement) x mean confidence (x 1 without confidence).

Equal suspicions are ordered by the area in disagreement (disagreeing_px).

PROTOCOL regroups values before comparing (flair1: 13..19 -&gt; 13); custom uses REMAP. A class map whose values are not the protocol's codes is aligned by class name; CLASS_MAP gives the mapping explicitly.</source>
        <translation>Écrit les polygones de référence dans un GeoPackage, du plus suspect au moins suspect, chacun avec son étiquette, la classe majoritaire du modèle, la part de ses pixels où modèle et étiquette s'accordent (accord), les pixels évalués et, avec un raster CONFIDENCE, la confiance moyenne du modèle. suspicion = (1 - accord) x confiance moyenne (x 1 sans confiance).

À suspicion égale, la plus grande surface en désaccord passe d'abord (disagreeing_px).

PROTOCOL regroupe les valeurs avant la comparaison (flair1 : 13..19 -&gt; 13) ; custom utilise REMAP. Une carte des classes dont les valeurs ne sont pas les codes du protocole est alignée par nom de classe ; CLASS_MAP donne la correspondance explicitement.</translation>
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
        <source>Writes a corrected copy of the reference: each raster cell under an item reviewed 'correct' or 'wrong' takes the item's true class where it differs. A polygon takes a new class only when the items in it agree; items that disagree are listed in the log and in table 'conflicts' and the polygon is left unchanged. An item whose point is outside its source_fid polygon is refused. A raster reference gives a GeoTIFF; polygons give a GeoPackage keeping every field plus 'label_before' and 'review_items'. Unsure items change nothing. REFERENCE must be the layer the review was sampled from. The original reference and the review are never modified.</source>
        <translation>Écrit une copie corrigée de la référence : chaque cellule raster sous un élément revu « correct » ou « wrong » prend la vraie classe de l'élément là où elle diffère. Un polygone ne prend une nouvelle classe que si ses éléments concordent ; des éléments en désaccord sont listés dans le journal et dans la table « conflicts », et le polygone reste inchangé. Un élément dont le point est hors de son polygone source_fid est refusé. Une référence raster donne un GeoTIFF ; des polygones donnent un GeoPackage qui garde tous les champs plus « label_before » et « review_items ». Les éléments incertains ne changent rien. REFERENCE doit être la couche sur laquelle la revue a été échantillonnée. La référence d'origine et la revue ne sont jamais modifiées.</translation>
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
        <location filename="../processing/base.py" line="42" />
        <source>{name} is a PyTorch/pickle file, not ONNX. Convert it with scripts/export-onnx; flair_qgis never loads pickles.</source>
        <translation>{name} est un fichier PyTorch/pickle, pas ONNX. Convertissez-le avec scripts/export-onnx ; flair_qgis ne charge jamais de pickles.</translation>
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
        <location filename="../processing/review_report_algorithm.py" line="34" />
        <source>Reads a review GeoPackage (flair:sample, verdicts from the Review tab) and writes a JSON report and a per-class CSV beside it: label-error rate (overall and per label class) and map accuracy (overall, user's and producer's accuracy, area proportions, area in ha) with 95 % intervals that follow the sampling design: stratified estimators (Olofsson et al. 2014, Stehman 2014) for the stratified design, Wilson intervals for random and grid samples, counts only for the suspicious design (not a probability sample). Items marked unsure are left out and counted.</source>
        <translation>Lit un GeoPackage de revue (flair:sample, verdicts de l'onglet Revue) et écrit un rapport JSON et un CSV par classe à côté : taux d'erreur des étiquettes (global et par classe d'étiquette) et précision de la carte (globale, utilisateur et producteur, proportions de surface, surface en ha) avec des intervalles à 95 % qui suivent le plan d'échantillonnage : estimateurs stratifiés (Olofsson et al. 2014, Stehman 2014) pour le plan stratifié, intervalles de Wilson pour les échantillons aléatoire et en grille, simples comptes pour le plan « suspicious » (pas un échantillon probabiliste). Les éléments marqués incertains sont écartés et comptés.</translation>
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
        <location filename="../i18n/errors.py" line="115" />
        <source>The model expects {channels} bands but the layer has {count}: choose a layer with {channels} bands or set BANDS to map the layer&apos;s bands to the model&apos;s.</source>
        <translation>Le modèle attend {channels} bandes mais la couche n&apos;en a que {count} : choisissez une couche à {channels} bandes ou associez avec BANDS les bandes de la couche à celles du modèle.</translation>
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
        <source>Precision</source>
        <translation>Précision</translation>
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
</context>
</TS>
