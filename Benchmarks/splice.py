#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Clumsy authors
# SPDX-License-Identifier: GPL-3.0-or-later

"""splice.py DOC TABLE: puts TABLE's text into DOC between the markers
<!-- make bench: begin --> and <!-- make bench: end --> (added at the end of DOC if absent)."""
import sys

BEGIN, END = "<!-- make bench: begin -->", "<!-- make bench: end -->"
doc_path, table_path = sys.argv[1], sys.argv[2]
doc = open(doc_path, encoding="utf-8").read()
table = open(table_path, encoding="utf-8").read().strip("\n")
block = BEGIN + "\n\n" + table + "\n\n" + END
if BEGIN in doc and END in doc:
    doc = doc[:doc.index(BEGIN)] + block + doc[doc.index(END) + len(END):]
else:
    doc = doc.rstrip("\n") + "\n\n## The last `make bench`\n\n" + block + "\n"
open(doc_path, "w", encoding="utf-8").write(doc)
