#!/usr/bin/env bash
# Builds dist/flair_qgis.zip, installable with QGIS's Plugin Manager ("Install from ZIP") and accepted
# by the QGIS plugin repository (plugins.qgis.org):
#   flair_qgis/            the package (no tests, no __pycache__, no hidden files)
#   flair_qgis/metadata.txt  the package's, with the changelog from CHANGELOG.md (scripts/plugin_zip.py
#                          metadata; warns while the email and URLs are placeholders)
#   flair_qgis/resources/ (icon, icons, styles, demo model), LICENSE, README.md
#   flair_qgis/i18n/*.qm   translations compiled from the Qt Linguist .ts sources (lrelease,
#                          Debian package qttools5-dev-tools, which make setup installs)
# Then checks the zip as the repository does (scripts/plugin_zip.py check) and fails with the reasons.
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
cp -RL "$PLUGIN/." "$STAGE/$PLUGIN/"
find "$STAGE/$PLUGIN" \( -name __pycache__ -o -name tests -o -name .pytest_cache \) -prune -exec rm -rf {} +
find "$STAGE/$PLUGIN" \( -name '*.pyc' -o -name '*.pyo' -o -name '.*' \) -type f -delete
python3 scripts/plugin_zip.py metadata "$PLUGIN/metadata.txt" CHANGELOG.md > "$STAGE/$PLUGIN/metadata.txt"
rm -rf "$STAGE/$PLUGIN/resources"
cp -RL resources "$STAGE/$PLUGIN/resources"
find "$STAGE/$PLUGIN/resources" -name __pycache__ -prune -exec rm -rf {} +
find "$STAGE/$PLUGIN/resources" -name '.*' -type f -delete
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
python3 scripts/plugin_zip.py check "$OUT" || { rm -f "$OUT"; exit 1; }
version=$(sed -n 's/^version=//p' "$PLUGIN/metadata.txt")
echo "package: $OUT ($PLUGIN $version, $(du -h "$OUT" | cut -f1)), checked as plugins.qgis.org's validator does"
