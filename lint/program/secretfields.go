package program

import (
	"strings"

	"github.com/skills-mcp/skills-mcp/internal/lazy"
	"github.com/skills-mcp/skills-mcp/internal/lazyre"
)

// This file is what the analysis knows of the parts of a secret file's
// content (secretread.go): which of them are structure, the names and
// counts a program may print without a secret in them, and which are the
// secrets. A credential store parsed (json.loads, yaml.safe_load,
// JSON.parse, configparser, jq) is a tree: the names of its entries (the
// registries of ~/.docker/config.json's auths, the profiles of
// ~/.aws/credentials, the contexts of a kubeconfig), a count, a test of
// whether a key is there, and the fields named for what they are
// (structureKey) are structure; a field named as a secret (secretKey),
// one the analysis cannot name, the values of an entry, or the tree whole
// stay the secret.

// Shapes of a secret's content (value.shape), for what iterating it gives.
// Only a store's own content parsed (shapeFile, shapeFileKV, then a
// parser's) has parts named for what they are: a container the program
// built from a secret ({"name": token}), or text it put together, stays
// the secret whatever it names its parts.
const (
	shapeRaw    uint8 = iota // text or bytes the program made: every part of it may be the secret
	shapeTree                // parsed: a field of it by name may be structure
	shapeMap                 // a mapping: iterating it gives its names
	shapePairs               // a mapping's (name, value) pairs: items(), Object.entries
	shapeINI                 // an INI file parsed (configparser): sections by name, get(section, option)
	shapeKV                  // a line of a key = value store split at "=" or ":": its first part names the setting
	shapeFile                // a store's content as read, or a line of it: a parser makes a tree of it
	shapeFileKV              // the same, of a key = value store (npmrc, .env, .pypirc, AWS's): a line split at "=" names the setting
	shapeScalar              // not a secret's: a number the program computed (round, int, Math.floor), a yes or no, a literal it chose: no text it read
)

// parsed reports a shape whose parts are named for what they are.
func parsed(shape uint8) bool { return shape >= shapeTree && shape <= shapeKV }

// fileShape returns the shape of the content of the secret file at p
// (normPath): a key = value store's, or another's.
func fileShape(p string) uint8 {
	for _, kv := range []string{".npmrc", ".env", ".pypirc", "/.aws/credentials", "/.aws/config"} {
		if strings.HasSuffix(p, kv) {
			return shapeFileKV
		}
	}
	return shapeFile
}

// mapFields are the fields of credential stores that are mappings by
// name: docker's auths and credHelpers, gh's and netrc's hosts.
var mapFields = []string{"auths", "credhelpers", "hosts", "profiles", "proxies", "httpheaders"}

// secretKeyParts are what the name of a field that holds a credential
// contains: auth in docker's auths, password in .netrc, token in gh's
// hosts.yml, aws_secret_access_key, client-key-data in a kubeconfig.
var secretKeyParts = []string{"auth", "pass", "pwd", "token", "secret", "key", "cred", "cert", "private", "session", "cookie", "bearer", "sig"}

// secretKey reports a field name that holds a credential.
func secretKey(k string) bool {
	k = strings.ToLower(k)
	for _, p := range secretKeyParts {
		if strings.Contains(k, p) {
			return true
		}
	}
	return false
}

// structureKeys are the fields of credential stores that name or describe
// an entry and hold no secret: a kubeconfig's names, server and current
// context, docker's credential helpers, an AWS profile's region, gh's git
// protocol. A field that can hold a secret under it (a kubeconfig's user,
// a profile by its name) is not one.
var structureKeys = lazy.Value[map[string]bool]{New: func() map[string]bool {
	m := map[string]bool{}
	for _, k := range []string{"name", "names", "region", "output", "server", "namespace", "cluster", "context", "current-context",
		"currentcontext", "current_context", "credsstore", "credhelpers", "git_protocol", "kind", "apiversion", "type", "length",
		"size", "count", "sso_start_url", "sso_region", "sso_account_id", "sso_role_name", "role_arn", "source_profile",
		"mfa_serial", "endpoint_url", "registry", "host", "hostname", "machine", "port"} {
		m[k] = true
	}
	return m
}}

// structure is what a program may take from a secret without the secret:
// a name, a count, a yes or no. It is no secret, from no read.
func structure(v value) value {
	v.t &^= tSecret | tEnv | tHome
	v.store, v.shape = 0, 0
	return v
}

// secretPart returns the part of secret v that a field of it, or an
// element, is: shape says what the part is parsed as, when v is parsed;
// a part of anything else is as raw as it.
func secretPart(v value, shape uint8) value {
	out := taintOf(^(tHome | tBuilt), v)
	if parsed(v.shape) {
		out.shape = shape
	}
	return out
}

// parsedFrom returns what a parser makes of secret v: a tree of shape,
// when v is a store's content as read; raw otherwise (text the program
// built is not the store).
func parsedFrom(v value, shape uint8) value {
	out := taintOf(^(tHome | tBuilt), v)
	if v.shape == shapeFile || v.shape == shapeFileKV {
		out.shape = shape
	}
	return out
}

// structureOf returns the names of secret v's entries, as keys() gives
// them: structure when v is parsed, the secret as raw as v otherwise (a
// mapping the program built may be named by the secret).
func structureOf(v value) value {
	if parsed(v.shape) {
		return structure(v)
	}
	return secretPart(v, shapeRaw)
}

// field returns v's field named k (known or not), as v[k], v.get(k) or
// v.k read it, when v is a secret: a field named for what it is is
// structure; a secret's field, one named by a value the analysis cannot
// see, or any other (an entry by its name, which holds its secrets) is
// the secret, parsed.
func field(v value, k value) value {
	switch {
	case !parsed(v.shape):
		return secretPart(v, shapeRaw) // text, or a container the program built: every part may be the secret
	case v.shape == shapeKV && k.known && k.s == "0":
		return structure(v) // the name before "=": the setting, not its value
	case !k.known:
		return secretPart(v, shapeTree)
	case structureKeys.Get()[strings.ToLower(k.s)]:
		return structure(v) // named whole for what it is: credsStore is a helper's name
	case secretKey(k.s):
		return secretPart(v, shapeTree)
	}
	for _, m := range mapFields {
		if strings.EqualFold(k.s, m) {
			return secretPart(v, shapeMap)
		}
	}
	return secretPart(v, shapeTree)
}

// iterSecret returns what a loop over secret v gives its names: the names
// of a mapping's entries are structure, and for pairs the values after
// them are the entries, the secret; the elements of anything else are
// the secret. keys says the loop walks names whatever v is (JavaScript's
// for … in).
func iterSecret(v value, keys bool, n int) []value {
	out := make([]value, n)
	for i := range out {
		switch {
		case i == 0 && (keys && parsed(v.shape) || v.shape == shapeMap || v.shape == shapeINI || n > 1 && (v.shape == shapePairs || v.shape == shapeKV)):
			out[i] = structure(v)
		case v.shape == shapeFile || v.shape == shapeFileKV:
			out[i] = v // a line of the store
			out[i].t &^= tHome | tBuilt
		case !parsed(v.shape):
			out[i] = secretPart(v, shapeRaw)
		default:
			out[i] = secretPart(v, shapeTree)
		}
	}
	return out
}

// Kinds of function on a secret (secretFuncs).
const (
	fnNone      = iota
	fnStructure // gives a count, a yes or no: len, bool, isinstance
	fnNames     // gives a mapping's names, a list's elements: sorted, list, set
	fnKeep      // gives the secret as it is, in another form: str, json.dumps
	fnParse     // parses text into a tree, a mapping at its top: json.loads, yaml.safe_load, JSON.parse
	fnKeys      // gives the names whatever it is given: Object.keys
	fnValues    // gives the entries: Object.values
	fnEntries   // gives (name, entry) pairs: Object.entries
)

// secretFuncs are the functions that take a secret and give a part of it,
// or it whole, without a sink: by canonical name.
var secretFuncs = lazy.Value[map[string]int]{New: func() map[string]int {
	m := map[string]int{}
	for k, names := range map[int][]string{
		fnStructure: {"len", "bool", "isinstance", "hasattr", "type", "callable", "any", "all", "id", "Array.isArray", "Number.isInteger",
			"Boolean", "Object.hasOwn", "os.path.exists", "os.path.isfile"},
		fnNames: {"sorted", "list", "set", "frozenset", "tuple", "iter", "reversed", "enumerate", "Array.from", "next", "filter", "min", "max"},
		fnKeep: {"str", "repr", "bytes", "bytearray", "dict", "json.dumps", "JSON.stringify", "String", "yaml.dump", "yaml.safe_dump",
			"toml.dumps", "sum", "zip", "format", "Buffer.concat", "base64.b64encode", "base64.urlsafe_b64encode", "binascii.hexlify", "hashlib.sha256"},
		fnParse: {"json.loads", "json.load", "yaml.safe_load", "yaml.load", "yaml.full_load", "toml.loads", "toml.load", "tomllib.loads",
			"tomllib.load", "JSON.parse", "yaml.parse", "YAML.parse", "jsyaml.load", "yaml.safeLoad", "JSON.load", "YAML.load", "YAML.safe_load",
			"urllib.parse.urlparse", "urllib.parse.urlsplit", "urlparse", "urlsplit", "URL", "url.parse", "URI.parse"},
		fnKeys:    {"Object.keys", "Object.getOwnPropertyNames", "Reflect.ownKeys"},
		fnValues:  {"Object.values"},
		fnEntries: {"Object.entries"},
	} {
		for _, n := range names {
			m[n] = k
		}
	}
	return m
}}

// secretMethod returns what method name, called on secret receiver rv
// with args, gives, when it is a method of a parsed store's tree or its
// text that gives a part of it: false for any other. mapDefault says the
// second argument is an empty mapping ({}): the field got is one.
func secretMethod(rv value, name string, args []value, mapDefault bool) (value, bool) {
	switch strings.ToLower(name) {
	case "keys", "sections", "options", "getownpropertynames":
		return structureOf(rv), true
	case "splitlines", "lines", "readlines", "each_line":
		return rv, true // the store's lines, as it is
	case "has", "hasownproperty", "has_section", "has_option", "includes", "__contains__", "startswith", "endswith",
		"exists", "containskey", "contains", "isempty", "is_empty", "empty?", "key?", "has_key?", "count", "index":
		return structure(rv), true
	case "values":
		return secretPart(rv, shapeTree), true
	case "items", "entries", "each_pair":
		return secretPart(rv, shapePairs), true
	case "split", "partition", "rsplit", "split_once":
		switch {
		case rv.shape == shapeFileKV && len(args) > 0 && args[0].known && (strings.TrimSpace(args[0].s) == "=" || strings.TrimSpace(args[0].s) == ":"):
			out := taintOf(^(tHome | tBuilt), rv)
			out.shape = shapeKV // a setting's line: its name, then its value
			return out, true
		case rv.shape == shapeFile || rv.shape == shapeFileKV:
			return rv, true // its lines, or pieces of them
		}
		return secretPart(rv, shapeRaw), true
	case "get", "getint", "getboolean", "getfloat", "fetch", "dig", "pop", "setdefault", "item":
		if len(args) == 0 {
			return value{}, false
		}
		k := args[0]
		if rv.shape == shapeINI && len(args) >= 2 {
			k = args[1] // configparser's get(section, option): the option names the field
		}
		v := field(rv, k)
		if v.t&tSecret != 0 && mapDefault && parsed(v.shape) {
			v.shape = shapeMap
		}
		return v, true
	}
	return value{}, false
}

// jqStructure reports a jq (or yq) filter whose output holds only
// structure: the names of a store's entries (keys, to_entries[].key), a
// count (length), a test (has, type), or fields named for what they are
// (.contexts[].name, ."current-context"), however its stages pipe.
// Anything it does not read as such (a field named as a secret, the tree
// whole, a construction) may be the secret.
func jqStructure(filter string) bool {
	filter = strings.TrimSpace(jqDefault.Regexp().ReplaceAllString(filter, ""))
	if filter == "" || strings.ContainsAny(filter, "{$") || strings.Contains(filter, "..") {
		return false
	}
	for _, alt := range splitTop(filter, ',') {
		// what the stages so far give: the tree (a secret), its
		// (name, value) entries, or structure
		const tree, entries, names = 0, 1, 2
		state := tree
		for _, stage := range splitTop(alt, '|') {
			st := strings.TrimSpace(stage)
			for len(st) > 1 && st[0] == '[' && st[len(st)-1] == ']' {
				st = strings.TrimSpace(st[1 : len(st)-1]) // [ … ] collects
			}
			switch {
			case st == "keys" || st == "keys[]" || st == "keys_unsorted" || st == "keys_unsorted[]" || st == "length" || st == "type" ||
				strings.HasPrefix(st, "has(") || st == "to_entries[].key" || st == "map(.key)" || st == "map(keys)" ||
				st == "map(.name)" || st == "map(.name)[]" || st == "any" || st == "all" || st == "not" || strings.HasPrefix(st, "test(") ||
				strings.HasPrefix(st, "index(") || st == "map(length)" || st == "add":
				if st != "add" || state == names {
					state = names
				}
			case st == "to_entries" || st == "to_entries[]":
				if state == tree {
					state = entries
				}
			case state == entries && (st == ".key" || st == "map(.key)" || st == ".[].key" || st == ".[] | .key"):
				state = names
			case st == "sort" || st == "unique" || st == ".[]" || st == "[]" || st == "first" || st == "last" || st == "tostring" || st == "@text" ||
				strings.HasPrefix(st, "join(") || strings.HasPrefix(st, "select(") || strings.HasPrefix(st, "sort_by(") || st == "@csv" || st == "@tsv" ||
				st == "." || st == "reverse" || st == "flatten":
				// keeps what it is given
			case strings.HasPrefix(st, "."):
				if state == tree && jqPathStructure(st) {
					state = names
				} else if state == entries {
					state = tree // .value, or a path into the entries
				}
			default:
				return false
			}
		}
		if state != names {
			return false
		}
	}
	return true
}

// jqDefault matches a jq alternative that gives an empty value when the
// path has none (.auths // {}): it changes nothing of what the path is.
var jqDefault = &lazyre.RE{Expr: `\s*//\s*(?:\{\s*\}|\[\s*\]|""|null|0|false)`}

// jqPathStructure reports a jq path whose last field is named for what it
// is (.contexts[].name, ."current-context", .["credsStore"]).
func jqPathStructure(p string) bool {
	p = strings.TrimSuffix(strings.TrimSuffix(p, "[]"), "?")
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return false
	}
	last := strings.Trim(p[i:], `.[]"'? `)
	return last != "" && !secretKey(last) && structureKeys.Get()[strings.ToLower(last)]
}

// splitTop splits s at sep outside brackets, parentheses and quotes.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, quote, start := 0, byte(0), 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"':
			quote = c
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case c == sep && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// taintOf returns a value with no string that carries the taint of vs
// under mask, and the store their secrets came from.
func taintOf(mask taint, vs ...value) value {
	var out value
	for _, v := range vs {
		if v.t&mask&tSecret != 0 {
			if out.t&tSecret == 0 {
				out.store, out.shape = v.store, v.shape // one secret: what it is parsed as, too
			} else {
				out.store, out.shape = joinStores(out.store, v.store), shapeRaw // secrets joined: raw
			}
		}
		out.t |= v.t & mask
	}
	return out
}

// withSecret adds v's taint to a collection's (a list, a mapping) and
// the store of its secrets, so that the reads a collection holds are the
// ones it escapes, and a credential from the environment stays one.
func withSecret(out, v value) value {
	if v.t&tSecret != 0 {
		if out.t&tSecret == 0 {
			out.store = v.store
		} else {
			out.store = joinStores(out.store, v.store)
		}
	}
	out.t |= v.t
	return out
}

// otherSecret is a secret that comes from no file the text reads.
func otherSecret(t taint) value { return value{t: t | tSecret, store: storeOther} }

// number is the result of arithmetic on a and b: a number, which carries
// no code, no path and no text of what it was computed from; a secret's
// taint stays with it (a count of a secret's lines still tells of it).
func number(a, b value) value {
	return value{t: (a.t | b.t) & tSecret, shape: shapeScalar, store: a.store | b.store}
}
