package serve

// What catalog_status reports of a catalog that changes over time (package
// live fills it in through Options.LiveStatus).

// LiveStatus describes how a Live server keeps its catalog fresh, for
// catalog_status (package live fills it in). It holds no local path: warnings name libraries by
// namespace.
type LiveStatus struct {
	Watch          string          `json:"watch"` // "on", "partial" or "off"
	WatchedFolders int             `json:"watchedFolders"`
	RescanSeconds  int             `json:"rescanSeconds"` // 0: no periodic rescan
	LastScan       string          `json:"lastScan"`      // RFC 3339
	Scans          int             `json:"scans"`
	Libraries      []LiveLibStatus `json:"libraries"`
	Warnings       []string        `json:"warnings,omitempty"`
}

// LiveLibStatus is one library's state.
type LiveLibStatus struct {
	Namespace string `json:"namespace"`
	Watch     string `json:"watch"`            // "on", "partial", "off", or "static" (https: fetched once)
	Serving   bool   `json:"serving"`          // a build of it is served
	Bundle    string `json:"bundle,omitempty"` // the id of the bundle served
	Error     string `json:"error,omitempty"`  // why its last build failed
}
