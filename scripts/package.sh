#!/usr/bin/env bash
# Builds dist/flair_qgis.zip, installable with QGIS's Plugin Manager ("Install from ZIP"):
#   flair_qgis/            the package (no tests, no __pycache__)
#   flair_qgis/metadata.txt, flair_qgis/resources/ (icon, icons, styles, demo model), LICENSE, README.md
#   flair_qgis/i18n/*.qm   translations compiled from the Qt Linguist .ts sources (lrelease,
#                          Debian package qttools5-dev-tools, which make setup installs)
set -euo pipefail
cd "$(dirname "$0")/.."
PLUGIN=flair_qgis
# DIST_DIR / BUILD_DIR: where the zip and the staging folder go (tests point them at a temp folder).
DIST_DIR=${DIST_DIR:-dist}
STAGE=${BUILD_DIR:-build}/package
mkdir -p "$DIST_DIR"
OUT=$(cd "$DIST_DIR" && pwd)/$PLUGIN.zip

rm -rf "$STAGE"
mkdir -p "$STAGE/$PLUGIN"
# -L: the source tree links metadata.txt into the package; the zip holds a real file.
cp -RL "$PLUGIN/." "$STAGE/$PLUGIN/"
find "$STAGE/$PLUGIN" \( -name __pycache__ -o -name tests -o -name .pytest_cache \) -prune -exec rm -rf {} +
find "$STAGE/$PLUGIN" \( -name '*.pyc' -o -name '*.pyo' -o -name '.*.partial*' -o -name '.DS_Store' \) -delete
rm -f "$STAGE/$PLUGIN/metadata.txt"
cp metadata.txt "$STAGE/$PLUGIN/metadata.txt"
rm -rf "$STAGE/$PLUGIN/resources"
cp -RL resources "$STAGE/$PLUGIN/resources"
find "$STAGE/$PLUGIN/resources" -name __pycache__ -prune -exec rm -rf {} +
# Translations: the .ts sources compile into .qm files the plugin loads for QGIS's locale.
"$(dirname "$0")/compile-translations" "$STAGE/$PLUGIN/i18n"
rm -f "$STAGE/$PLUGIN"/i18n/*.ts
for doc in LICENSE LICENSE.txt README.md; do
  [ -f "$doc" ] && cp "$doc" "$STAGE/$PLUGIN/"
done

rm -f "$OUT"
if command -v zip >/dev/null 2>&1; then
  (cd "$STAGE" && zip -q -r -X "$OUT" "$PLUGIN")
else
  (cd "$STAGE" && python3 -m zipfile -c "$OUT" "$PLUGIN")
fi
version=$(sed -n 's/^version=//p' metadata.txt)
echo "package: $OUT ($PLUGIN $version, $(du -h "$OUT" | cut -f1))"
