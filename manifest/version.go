package manifest

// ReleaseInfo is what a bundle's libraries say of the bundle as one
// release: what the OCI annotations org.opencontainers.image.version,
// .source and .revision carry, and what inspect shows.
type ReleaseInfo struct {
	Version  string `json:"version,omitempty"`  // the libraries' version
	Source   string `json:"source,omitempty"`   // the libraries' source
	Revision string `json:"revision,omitempty"` // the libraries' metadata "revision"
}

// RevisionKey is the library metadata key that names the source revision
// (a commit) a library was built from.
const RevisionKey = "revision"

// Release returns what libs say of their bundle as one release: each field
// is the value that every library setting it agrees on, and empty when
// none sets it or two disagree (two libraries of two versions are no one
// version). It depends only on libs, so one bundle always gives the same.
func Release(libs []Library) ReleaseInfo {
	agree := func(get func(l *Library) string) string {
		v := ""
		for i := range libs {
			switch s := get(&libs[i]); {
			case s == "":
			case v == "":
				v = s
			case s != v:
				return ""
			}
		}
		return v
	}
	return ReleaseInfo{
		Version:  agree(func(l *Library) string { return l.Version }),
		Source:   agree(func(l *Library) string { return l.Source }),
		Revision: agree(func(l *Library) string { return l.Metadata[RevisionKey] }),
	}
}
