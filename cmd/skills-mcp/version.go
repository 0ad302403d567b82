package main

import (
	"runtime/debug"
	"sync"
)

// version is the tool's version, set at link time with -ldflags "-X main.version=…".
// Without that, the version is the one the go command recorded (see buildVersion).
var version = ""

// buildVersion is the version of a binary whose linker set none: the module
// version the go command recorded (go install …@v1.4.0 records v1.4.0; a
// build in a clone, the pseudo-version of its commit,
// v0.0.0-<time>-<rev>[+dirty]), else the VCS revision (with "-dirty" for
// uncommitted changes), else "dev" (as under -buildvcs=false).
func buildVersion(bi *debug.BuildInfo, ok bool) string {
	if !ok {
		return "dev"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev == "" {
		return "dev"
	}
	return "dev-" + rev[:min(len(rev), 12)] + dirty
}

// versionString is what --version prints, and what serve and pull report as
// their implementation's version.
var versionString = sync.OnceValue(func() string {
	if version != "" {
		return version
	}
	return buildVersion(debug.ReadBuildInfo())
})
