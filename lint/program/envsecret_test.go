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
