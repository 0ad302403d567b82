// Package search is the ranked full-text search over a catalog of skills:
// an inverted index (New) over documents (Doc: a skill's name, description,
// tags and body, its library and path) and a BM25F ranking with name and
// path matches (Index.Search). It knows documents, not MCP or bundles: serve
// derives the documents from a snapshot, builds the index on the first
// query and turns hits back into skills.
//
// # Invariants
//
//   - Documents and queries go through the same text analysis (folding,
//     compounds, stop words, stemming), so a document's own words find it.
//   - An Index is immutable once built and safe for concurrent queries;
//     per-query scratch arrays are pooled and reset after each query, so a
//     query run twice gives identical results.
//   - Results are a pure function of the documents, their order and the
//     query: ties are broken by document number, and the index does not
//     depend on how many workers built it.
//   - A query's cost is bounded: a word expands to at most maxVariants
//     terms of its family, the last word to at most maxExpansions terms, runs of at most maxNameWords words are matched
//     as names, and each name or folder match is walked once per query.
//   - Only the first MaxBody bytes of a body are indexed.
//
// # Ranking
//
// The ranking is BM25F (Robertson and Zaragoza's field-weighted BM25) over
// five fields of each listed skill: its name, its description, its tags
// (frontmatter tags and keywords, every metadata value, the category), the
// Markdown headings of the first MaxBody bytes of its SKILL.md body (ATX
// headings outside fenced code), and the rest of that body. Per term and
// skill the field frequencies are length-normalised per field, weighted,
// summed and saturated once, so a term repeated in a long body cannot
// outweigh one occurrence in the name. The body's running text weighs
// least: a query's words turn up there in passing (an example, a list of
// what the skill is not for), and a lower weight ranked the skill a
// paraphrase asks for higher on the held-out queries.
//
// # Text analysis
//
// The same for documents and queries:
//   - case and accent folding: Unicode lower case, then a table that maps
//     Latin letters with diacritics to their base letters (é→e, ß→ss, ø→o;
//     decomposed combining marks are dropped), so "Déclaration" finds
//     "declaration";
//   - punctuation folding: words are runs of letters and digits; an
//     apostrophe inside a word is dropped ("don't" is "dont"), anything else
//     separates words;
//   - compounds: words joined by - _ / or . are indexed both apart and
//     joined ("pdf-processing" gives pdf, processing and pdfprocessing; "ci/cd"
//     gives cicd), so a hyphenated name matches its words and its run-together
//     form;
//   - one-letter words and a short list of English stop words are dropped;
//   - a light English stemmer folds plurals and -ing/-ed forms and drops a
//     final e (refunds→refund, deploying→deploy, invoices→invoic), and
//     British spellings become American ones (-ise → -ize, behaviour →
//     behavior, analyse → analyz, modelling → model).
//
// # Queries
//
// Query features beyond BM25F: each query word also matches the other
// indexed words of its family (family: a noun or adjective derived from a
// verb, "communication" for "communicate", at familyWeight, the best match
// per skill counting, as the word itself for coordination), so a
// paraphrase finds a skill that says the same thing in another form; the
// last word of the query also matches as a prefix of indexed terms (at
// prefixWeight of a full match, the best expansion per skill), so "kube"
// finds "kubernetes"; a skill whose name is
// the query (ignoring case and punctuation) gets exactNameBonus; the score
// is scaled by the share of query terms the skill matches (coordination),
// so a skill that matches every word beats one that matches one word often.
// Ties are broken by document number (serve numbers them in URI order),
// so results are stable.
//
// # Name and path matches
//
// For catalogs that combine libraries of different
// styles: a run of query words that is a skill's whole name ("pptx" in
// "turn this into a pptx deck", "brand guidelines" for brand-guidelines)
// adds the idf of the name's rarest term, and one that is a folder of its
// path below the namespace ("playwright pro" for playwright-pro/skills/…)
// adds a share of the folder's idf among the paths, so a folder that holds
// a whole library counts for next to nothing; the best match per skill
// counts. A few application names stand for the file format skills are
// named after ("PowerPoint" for pptx, "Excel" for xlsx, "Word document"
// for docx). The reason: a terse library puts what a skill is for in its
// name and a one-line description, a wordy one in long descriptions and
// bodies that repeat the query's words, and term statistics alone let the
// wordy library win. The bonus is additive, so it orders skills the text
// already found and lifts a named one that the text barely mentions.
//
// # Over the whole catalog
//
// Length normalisation and idf are over the whole catalog, not per
// library. Per-library averages would keep a library's scores the same
// whatever it is served with, but they drop the correction BM25 makes for
// verbose text across libraries: a terse skill is then measured against
// terse neighbours only, and a wordy library's repeated words outrank it.
// Per-library idf would make every term rare in a small library. On the
// combined query sets both ranked the expected skill lower (see
// search/testdata and TestSearchQuality).
//
// # Measured and left out
//
// Term associations learned from the catalog (terms that lead the same
// skills' names, descriptions, tags and headings, by the Jaccard
// coefficient of those skills) and pseudo-relevance feedback (the lead
// terms of the first pass's best skills, added to the query or only
// reordering them) were built and measured on the paraphrase query sets:
// in a library of a few hundred skills the co-occurrences are too sparse,
// and neither gained on the held-out half, so neither is in the ranking.
//
// # Built lazily
//
// serve builds an index lazily, on the first query against a snapshot, and
// keeps it with the snapshot's catalog: serve's start-up does not pay for
// it, and a new snapshot (Swap) gets a new index on its first query.
package search
