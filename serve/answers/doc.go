// Package answers is serve's pre-encoded answers. A snapshot never changes, so the JSON-RPC answer to
// resources/read, skills/get, a skills/list page or a
// resources/directory/read page is, for one view of one snapshot and one
// protocol revision, a fixed byte string. The first time such a request is
// seen it goes to the SDK as any other, and the answer the SDK wrote is
// kept with the request's id cut out; a later request with the same key is
// answered with those bytes around its own id, without the SDK. The bytes
// are always the SDK's own, so an answer from the cache is the answer the
// SDK would give.
//
// Only a request the recogniser (wire.Recognise) knows exactly, with a key
// that holds everything its answer depends on (keyOf), is answered so;
// anything else goes to the SDK. The kept answers have a byte budget they
// never exceed, and Reset (serve's Swap) drops them all.
//
// Invariants: it knows nothing of skills or MCP's methods beyond the
// requests wire recognises; the server passes down its snapshot, the
// caller's view and what to tell of an answer (Host); an answer is kept
// only if it is a result under exactly the id asked, for the snapshot
// still served when it was written.
package answers
