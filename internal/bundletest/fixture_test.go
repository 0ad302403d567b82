package bundletest

import "testing"

// TestManifestCountsLibraries checks that a fixture's libraries carry their
// skill and hidden counts, as build writes them: the instructions and
// inspect show these counts, so benchmarks of them need real ones.
func TestManifestCountsLibraries(t *testing.T) {
	fx := Big(25)
	fx["ns0/quiet"] = map[string]string{
		"SKILL.md": "---\nname: quiet\ndescription: Hidden from the model.\ndisable-model-invocation: true\n---\nBody.\n",
	}
	m, _ := Manifest(t, fx)
	want := map[string][2]int{"ns0": {4, 1}, "ns1": {3, 0}, "ns4": {3, 0}, "ns5": {2, 0}, "ns9": {2, 0}}
	if len(m.Libraries) != 10 {
		t.Fatalf("libraries: got %d, want 10", len(m.Libraries))
	}
	for _, l := range m.Libraries {
		w, ok := want[l.Namespace]
		if ok && (l.Skills != w[0] || l.Hidden != w[1]) {
			t.Errorf("library %s: got %d skills, %d hidden; want %d, %d", l.Namespace, l.Skills, l.Hidden, w[0], w[1])
		}
	}
}
