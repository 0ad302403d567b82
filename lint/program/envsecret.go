package program

import "strings"

// This file is what the code analysis does with an environment variable
// whose name says it holds a credential (GITHUB_TOKEN, OPENAI_API_KEY,
// AWS_SECRET_ACCESS_KEY): its value is a secret in the flow, read from no
// file. The user set it for the skill to use, so sending it is use
// (scan.gradeSend): in a header, a request's body, an SDK's constructor,
// a child's environment, to a host the variable's name may be for. It is
// exfiltration where no service takes a credential: in a name looked up
// (dns-exfil), an image's URL (image-exfil), a file the program wrote and
// then sent (the file's content is a secret like any other); and a
// warning (secret-exfil) in a request to a known host that no
// credential's name the text reads names, in its address or not. A
// password store's item read by name (storeItem) is such a credential
// too, its name the item's.

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

// storeItem returns the name of the item a password store's command
// prints, when the command names one in words the analysis knows: the
// item of op read op://VAULT/ITEM/FIELD and of op item get ITEM, the path
// of vault read and vault kv get, of pass show and lpass show, the name of
// bw get password. Such an item is a credential the user keeps for a
// service and gives the skill by name, as an environment variable is
// (credentialEnv): sent to the host its name names it is use, to another
// a warning. A store read whole, or an item the analysis cannot name, is
// "" and stays a secret like any other.
func storeItem(name string, rest []value) string {
	var args []string // the words after the command's verbs, options left out
	for _, a := range rest {
		if !a.known {
			return ""
		}
		if !strings.HasPrefix(a.s, "-") {
			args = append(args, a.s)
		}
	}
	verbs := 1 // op read REF, vault read PATH, pass show PATH, lpass show NAME
	switch {
	case name == "bw", name == "op" && len(args) > 0 && args[0] == "item", name == "vault" && len(args) > 0 && args[0] == "kv":
		verbs = 2 // bw get password NAME, op item get NAME, vault kv get PATH
	case name != "op" && name != "vault" && name != "pass" && name != "lpass":
		return ""
	}
	if verbs == 0 || len(args) <= verbs {
		return ""
	}
	item := args[verbs]
	if name == "vault" {
		item = args[len(args)-1] // after an option's value: vault kv get -field token PATH
	}
	if ref, ok := strings.CutPrefix(item, "op://"); ok {
		parts := strings.Split(ref, "/")
		if len(parts) < 3 {
			return ""
		}
		item = parts[1]
	}
	return item
}

// maxCreds bounds the credentials' names a text's scan keeps.
const maxCreds = 64

// serviceWords are the words of a credential's name that name its service
// (GITHUB of GITHUB_TOKEN, AZURE and OPENAI of AZURE_OPENAI_API_KEY), in
// lower case, with a few short forms spelled out (GH, HF, DD, AWS).
func serviceWords(name string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(name, func(r rune) bool { return !('A' <= r && r <= 'Z' || '0' <= r && r <= '9') }) {
		switch w {
		case "TOKEN", "SECRET", "PASSWORD", "PASSWD", "APIKEY", "PAT", "KEY", "API", "ACCESS", "PRIVATE", "AUTH", "ID", "BOT",
			"CLIENT", "PERSONAL", "APP", "USER", "OAUTH", "BEARER", "REFRESH", "SESSION", "WEBHOOK", "SIGNING", "SERVICE",
			"ACCOUNT", "PROD", "DEV", "TEST", "STAGING", "MY", "DEFAULT", "READ", "WRITE", "ADMIN", "MASTER", "ROOT",
			"SECRETS", "DATA", "KV", "CREDENTIAL", "CREDENTIALS":
			continue
		case "GH":
			w = "GITHUB"
		case "GL":
			w = "GITLAB"
		case "CF":
			w = "CLOUDFLARE"
		case "HF":
			w = "HUGGINGFACE"
		case "DD":
			w = "DATADOG"
		case "AWS":
			w = "AMAZONAWS"
		case "GCP", "GEMINI":
			w = "GOOGLEAPIS"
		case "JIRA", "CONFLUENCE":
			out = append(out, strings.ToLower(w)) // a server of its own, or Atlassian's cloud
			w = "ATLASSIAN"
		}
		if len(w) > 1 {
			out = append(out, strings.ToLower(w))
		}
	}
	return out
}

// relatedHost reports a host that one of the credentials a text reads
// may be for: its domain (the last two labels) or its first label is a
// service word of a name, or starts with one and goes on in letters
// (api.github.com, githubusercontent.com, googleapis.com for
// GOOGLE_API_KEY, jira.example.com for a self-hosted JIRA_API_TOKEN; not
// api.github.com.collect.example); a name with no service word
// (API_KEY, TOKEN) may be for any host, and so may the machine itself.
// A label with a hyphen after the word (npm-status.example) is another
// host's.
func relatedHost(host string, creds []string) bool {
	host = strings.ToLower(host)
	if host == "localhost" || strings.HasPrefix(host, "127.") || host == "[::1]" || host == "::1" {
		return true
	}
	labels := strings.Split(host, ".")
	if n := len(labels); n > 3 {
		labels = []string{labels[0], labels[n-2], labels[n-1]} // a service's own domain, or a host named for it (jira.example.com)
	}
	for _, c := range creds {
		words := serviceWords(c)
		if len(words) == 0 {
			return true
		}
		for _, w := range words {
			for _, l := range labels {
				if rest, ok := strings.CutPrefix(l, w); ok && strings.IndexFunc(rest, func(r rune) bool { return r < 'a' || r > 'z' }) < 0 {
					return true
				}
			}
		}
	}
	return len(creds) == 0
}

// hostOf returns the host of the address a string starts with, or "".
func hostOf(s string) string {
	i := strings.Index(s, "://")
	if i < 0 {
		return ""
	}
	h := s[i+3:]
	if j := strings.IndexAny(h, "/?#"); j >= 0 {
		h = h[:j]
	}
	if j := strings.LastIndexByte(h, '@'); j >= 0 {
		h = h[j+1:]
	}
	if j := strings.LastIndexByte(h, ':'); j >= 0 && !strings.HasSuffix(h, "]") {
		h = h[:j]
	}
	return h
}

// credentialUse reports a credential from the environment sent as it is
// meant to be, which scan.gradeSend then leaves alone (creds are the
// credentials' names the text reads): anywhere but in
// the address of a request (a header, a body, a client's options), or in
// the address of a host its name names (a key in Google's query, a bot's
// token in Telegram's path). In another address it is a warning, not an
// error: a few services take a key so.
func credentialUse(v value, creds []string) (use, inURL bool) {
	if v.t&tSecret == 0 || v.t&tEnv != 0 || v.store != storeEnv {
		return false, false
	}
	if h := hostOf(v.s); strings.Contains(v.s, "://") && (h == "" || !relatedHost(h, creds)) {
		return false, true
	}
	return true, false
}
