package serve

import (
	"github.com/skills-mcp/skills-mcp/wellknown"
)

// siteKeepBytes bounds the artifact bytes a served site keeps in memory;
// past it, artifacts are made again on each request.
const siteKeepBytes = 64 << 20

// Site returns the Agent Skills discovery site of the snapshot (see package
// wellknown), made at the first call: the same index and artifacts
// export --well-known writes for the same bundles and ShowDisabled setting.
func (s *Snapshot) Site() (*wellknown.Site, error) {
	s.site.once.Do(func() {
		s.site.site, s.site.err = wellknown.NewSite(s.bundles, wellknown.SiteOptions{ShowHidden: s.showDisabled, KeepBytes: siteKeepBytes})
	})
	return s.site.site, s.site.err
}
