// Package wire is MCP's JSON-RPC messages as bytes, beneath the SDK that
// decodes them: the rules a message must keep before the SDK sees it
// (CheckMessage), the stdio transport that frames and checks each line
// and answers every request it read before its input ends (NewStdio), the
// recogniser of the few requests whose answers serve keeps pre-encoded
// (Recognise), the HTTP requests those answers may be given for (Headers,
// Answerable), and the bytes of such an answer (Tail, Append, Capture).
//
// Invariants: it knows nothing of skills, snapshots or the server: serve
// passes down what answers a line (Answers); the recogniser takes only the
// requests it knows exactly and refuses everything else, never guessing;
// a message that passes CheckMessage is one the SDK's own decoder takes,
// answered under the id it was sent with; no input makes it fail or panic.
package wire
