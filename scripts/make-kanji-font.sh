#!/usr/bin/env bash
# Makes web/page/fonts/kishi-kanji.woff2: the glyphs the page draws in Japanese (shogi pieces in one-
# and two-kanji sets, Japanese move notation, the hands' and players' marks), cut from Noto Serif CJK JP
# Bold (SIL Open Font License 1.1, web/page/fonts/OFL.txt), so shogi pieces look the same on every
# machine and nothing is fetched from outside. Debian: apt-get install fonts-noto-cjk python3-fonttools
# python3-brotli. Run from the repository root; the output is committed.
set -euo pipefail
SRC=${1:-/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc}
# Pieces (shogiops' roleToKanji and the two-kanji names), numerals, notation words, marks.
TEXT='歩兵香車桂馬銀将金角行飛王玉と杏圭全龍竜成不打同右左上引寄直一二三四五六七八九十１２３４５６７８９先後手☗☖・　'
/usr/bin/python3 -m fontTools.subset "$SRC" --font-number=0 --text="$TEXT" \
  --layout-features='*' --flavor=woff2 --no-hinting --desubroutinize \
  --name-IDs='*' --output-file=web/page/fonts/kishi-kanji.woff2
ls -l web/page/fonts/kishi-kanji.woff2
