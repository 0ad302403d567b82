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
//   - A query's cost is bounded: the last word expands to at most
//     maxExpansions terms, runs of at most maxNameWords words are matched
//     as names, and each name or folder match is walked once per query.
//   - Only the first MaxBody bytes of a body are indexed.
package search
