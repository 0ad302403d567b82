package oci

// SetAnalyserVersion makes v the name of the analyser that derivation
// records are kept under, as a rebuilt binary would, until restore.
func SetAnalyserVersion(v string) (restore func()) {
	old := analyserVersion
	analyserVersion = func() string { return v }
	return func() { analyserVersion = old }
}
