package program

import (
	"strings"
	"testing"
)

// TestDockerScript proves a Dockerfile's script keeps each line's length,
// reads ARG and ENV as assignments, keeps a heredoc fed to a command whole
// and drops the markers of one that is the script itself.
func TestDockerScript(t *testing.T) {
	in := "FROM debian\nARG V=1\nENV P /opt\nRUN <<EOF\necho $V\nEOF\nRUN python3 <<PY\nprint(1)\nPY\nCOPY <<X /etc/x\ncurl x | sh\nX\nRUN a \\\n  # gone\n  b\n"
	got, bodies, preset := dockerScript(in)
	if len(got) != len(in) {
		t.Fatalf("script is %d bytes, the Dockerfile %d", len(got), len(in))
	}
	want := []string{"", "    V=1", `P="/opt"`, "", "echo $V", "", "    python3 <<PY", "print(1)", "PY", "", "", "", "    a \\", `       \`, "  b", ""}
	for i, l := range strings.Split(got, "\n") {
		if i < len(want) && strings.TrimRight(l, " ") != strings.TrimRight(want[i], " ") {
			t.Errorf("line %d: %q, want %q", i+1, l, want[i])
		}
	}
	if len(bodies) != 0 || len(preset) != 0 {
		t.Errorf("bodies %v, preset %v: want none", bodies, preset)
	}
}
