package manifest

import "strconv"

// Files of a bundle's manifest and its signatures when published as plain
// files (export, and a well-known site).
const (
	ManifestFile = "manifest.json"
	SSHSigFile   = "manifest.json.sig"
	MinisigFile  = "manifest.json.minisig"
)

// SignatureFileNames returns the file names under which a bundle's
// signatures are published next to ManifestFile, in order: the first SSH
// signature as manifest.json.sig, the next ones as manifest.json.sig.2, .3,
// …, and the same for minisign signatures with manifest.json.minisig.
func SignatureFileNames(sigs []Signature) []string {
	names := make([]string, len(sigs))
	count := map[SignatureKind]int{}
	for i, s := range sigs {
		count[s.Kind]++
		base := SSHSigFile
		if s.Kind == SignatureMinisign {
			base = MinisigFile
		} else if s.Kind != SignatureSSH {
			base = ManifestFile + ".sigkind" + strconv.Itoa(int(s.Kind))
		}
		if n := count[s.Kind]; n > 1 {
			base += "." + strconv.Itoa(n)
		}
		names[i] = base
	}
	return names
}
