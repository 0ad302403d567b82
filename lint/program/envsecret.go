package program

import "strings"

// This file is what the code analysis does with an environment variable
// whose name says it holds a credential (GITHUB_TOKEN, OPENAI_API_KEY,
// AWS_SECRET_ACCESS_KEY): its value is a secret in the flow, read from no
// file. The user set it for the skill to use, so sending it is use
// (scan.gradeSend): in a header, a request's body, an SDK's constructor,
// a child's environment. It is exfiltration where no service takes a
// credential: in a name looked up (dns-exfil), an image's URL
// (image-exfil), the address of a request itself (secret-exfil, a
// warning: a few services take a key in the query), or a file the program
// wrote and then sent (the file's content is a secret like any other).

// credentialEnv reports an environment variable whose name says it holds
// a credential: its last word is TOKEN, SECRET, PASSWORD, PASSWD, APIKEY or
// PAT, or KEY after API, ACCESS, SECRET, PRIVATE or AUTH (a trailing ID
// names the key's id, which AWS_ACCESS_KEY_ID pairs with its secret). A
// name that ends in what locates or describes one (_FILE, _PATH, _URL,
// _NAME, _TYPE, _HEADER) holds no credential itself.
func credentialEnv(name string) bool {
	words := strings.FieldsFunc(strings.ToUpper(name), func(r rune) bool { return !('A' <= r && r <= 'Z' || '0' <= r && r <= '9') })
	if n := len(words); n > 2 && words[n-1] == "ID" && words[n-2] == "KEY" {
		words = words[:n-1]
	}
	n := len(words)
	if n == 0 {
		return false
	}
	switch words[n-1] {
	case "TOKEN", "SECRET", "PASSWORD", "PASSWD", "APIKEY", "PAT":
		return true
	case "KEY":
		if n > 1 {
			switch words[n-2] {
			case "API", "ACCESS", "SECRET", "PRIVATE", "AUTH":
				return true
			}
		}
	}
	return false
}

// envCredential is the value of a credential's environment variable.
func envCredential() value {
	return value{t: tSecret, store: storeEnv}
}

// envCredentialUse reports a credential from the environment sent as it
// is meant to be: anywhere but in the address of the request (a header, a
// body, a client's options), which scan.gradeSend then leaves alone. In an
// address it is a warning, not an error: a few services take a key so.
func envCredentialUse(v value) (use, inURL bool) {
	if v.t&tSecret == 0 || v.t&tEnv != 0 || v.store != storeEnv {
		return false, false
	}
	if strings.Contains(v.s, "://") {
		return false, true
	}
	return true, false
}
