package program

import "testing"

func TestCredentialEnv(t *testing.T) {
	for name, want := range map[string]bool{
		"GITHUB_TOKEN": true, "GH_TOKEN": true, "OPENAI_API_KEY": true, "AWS_SECRET_ACCESS_KEY": true, "AWS_ACCESS_KEY_ID": true,
		"DB_PASSWORD": true, "CLIENT_SECRET": true, "STRIPE_SECRET_KEY": true, "openai_apikey": true, "SIGNING_PRIVATE_KEY": true,
		"GITHUB_REPOSITORY": false, "HOME": false, "TOKEN_URL": false, "GITHUB_TOKEN_FILE": false, "SORT_KEY": false,
		"API_KEY_PATH": false, "KEY_ID": false, "PATH": false, "": false, "SECRET_NAME": false,
	} {
		if got := credentialEnv(name); got != want {
			t.Errorf("credentialEnv(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestRelatedHost(t *testing.T) {
	for _, c := range []struct {
		host  string
		creds []string
		want  bool
	}{
		{"api.github.com", []string{"GITHUB_TOKEN"}, true},
		{"objects.githubusercontent.com", []string{"GH_TOKEN"}, true},
		{"huggingface.co", []string{"HF_TOKEN"}, true},
		{"generativelanguage.googleapis.com", []string{"GOOGLE_API_KEY"}, true},
		{"myres.openai.azure.com", []string{"AZURE_OPENAI_API_KEY"}, true},
		{"jira.example.com", []string{"JIRA_API_TOKEN"}, true},
		{"collect.example", []string{"API_KEY"}, true},
		{"localhost", []string{"GITHUB_TOKEN"}, true},
		{"collect.example", []string{"GITHUB_TOKEN"}, false},
		{"npm-status.example", []string{"NPM_TOKEN"}, false},
		{"api.github.com.collect.example", []string{"GITHUB_TOKEN"}, false},
		{"api.openai.com", []string{"GITHUB_TOKEN", "OPENAI_API_KEY"}, true},
	} {
		if got := relatedHost(c.host, c.creds); got != c.want {
			t.Errorf("relatedHost(%q, %q) = %v, want %v", c.host, c.creds, got, c.want)
		}
	}
}

// TestStoreItem proves which password-store reads name their item, and
// that a store read whole or by a name the analysis cannot see names none.
func TestStoreItem(t *testing.T) {
	k := func(ws ...string) []value {
		vs := make([]value, len(ws))
		for i, w := range ws {
			vs[i] = value{s: w, known: true}
		}
		return vs
	}
	for _, c := range []struct {
		name string
		rest []value
		want string
	}{
		{"op", k("read", "op://Eng/npm/credential"), "npm"},
		{"op", k("read", "op://Eng"), ""},
		{"op", k("item", "get", "GitHub", "--fields", "label=token"), "GitHub"},
		{"op", k("item", "list"), ""},
		{"vault", k("kv", "get", "-field", "token", "secret/ci/deploy"), "secret/ci/deploy"},
		{"vault", k("read", "secret/db"), "secret/db"},
		{"pass", k("show", "work/db"), "work/db"},
		{"bw", k("get", "password", "github"), "github"},
		{"gh", k("auth", "token"), ""},
		{"op", append(k("read"), value{s: "$REF"}), ""},
	} {
		if got := storeItem(c.name, c.rest); got != c.want {
			t.Errorf("storeItem(%s %v) = %q, want %q", c.name, c.rest, got, c.want)
		}
	}
}
