package servetest

// RequestSeeds are the fuzz seeds of the request recogniser of the
// pre-encoded answers (serve/wire.Recognise) and of serve's answers over
// HTTP: the forms it takes (each method, ids, _meta, white space) and near
// misses it must refuse (a fractional id, an escape, an extra member,
// trailing bytes).
var RequestSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"skill://acme/pdf-processing/SKILL.md"}}`,
	`{"jsonrpc":"2.0","id":"a-1","method":"skills/get","params":{"uri":"skill://acme/pdf-processing/SKILL.md"}}`,
	`{"jsonrpc":"2.0","id":-3,"method":"skills/list"}`,
	` { "id" : 0 , "method" : "skills/list" , "params" : { "cursor" : "x" } , "jsonrpc" : "2.0" } `,
	`{"jsonrpc":"2.0","id":4,"method":"resources/directory/read","params":{"uri":"skill://acme","cursor":""}}`,
	`{"jsonrpc":"2.0","id":5,"method":"resources/read","params":{"uri":"skill://acme/pdf-processing/SKILL.md","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"x\"y","version":"1"}}}}`,
	`{"jsonrpc":"2.0","id":6,"method":"resources/read","params":{"uri":"skill://acme/pdf-processing/SKILL.md","_meta":{"progressToken":7}}}`,
	`{"jsonrpc":"2.0","id":7.5,"method":"skills/list"}`,
	`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{"cursor":"a\u0041"}}`,
	`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{},"extra":1}`,
	`{"jsonrpc":"2.0","id":1,"method":"skills/list","params":{}}{}`,
}
