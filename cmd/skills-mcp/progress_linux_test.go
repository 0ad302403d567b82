package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/skills-mcp/skills-mcp/oci/ocitest"
	"golang.org/x/sys/unix"
)

// TestProgress runs the real command with stderr on a pseudo-terminal, as
// a person at a terminal sees it: build, push (of a signed bundle), a fetch
// from a real registry (inspect, serve and pull --from oci://), pull, and
// build -o oci://. Each draws its progress line, redrawn in place, and ends
// it complete; notes and logs written meanwhile land on lines of their own,
// never inside the progress line. With stderr a pipe or a file, the same
// commands write no progress at all: no carriage return, no escape code.
func TestProgress(t *testing.T) {
	bin, err := exec.LookPath("skills-mcp") // this test binary, as testscript.Main links it
	if err != nil {
		t.Skip(err)
	}
	reg := ocitest.StartTest(t, false)

	dir := t.TempDir()
	const skills = 60 // more than a handful: the line is redrawn many times
	lib := filepath.Join(dir, "lib")
	for i := range skills {
		sd := filepath.Join(lib, fmt.Sprintf("s%02d", i))
		must(t, os.MkdirAll(sd, 0o755))
		must(t, os.WriteFile(filepath.Join(sd, "SKILL.md"), fmt.Appendf(nil, "---\nname: s%02d\ndescription: Skill %d, for the progress test.\n---\nBody %d.\n", i, i, i), 0o644))
		must(t, os.WriteFile(filepath.Join(sd, "notes.md"), fmt.Appendf(nil, "Notes of skill %d.\n", i), 0o644))
	}
	key := filepath.Join(dir, "k")
	if out, err := exec.Command(bin, "keygen", "-o", key, "--principal", "ci@example.com").CombinedOutput(); err != nil {
		t.Fatalf("keygen: %v\n%s", err, out)
	}

	// Each mode runs every command in a folder of its own, so that each
	// fetch is a cold one and each push sends blobs.
	for _, mode := range []string{"terminal", "pipe", "file"} {
		t.Run(mode, func(t *testing.T) {
			work := filepath.Join(dir, mode)
			must(t, os.MkdirAll(work, 0o755))
			repo := "oci://" + reg.Host + "/progress/" + mode
			for _, c := range []struct {
				name string
				args []string
				// want: the progress lines, verb and unit, in order, and
				// their totals (0: any).
				want []progressLine
			}{
				{"build", []string{"build", "--lib", "lib=" + lib, "-o", "b.skb", "--sign", key},
					[]progressLine{{"building", "skills", skills}}},
				{"push", []string{"push", "b.skb", repo + ":v1", "--plain-http"},
					[]progressLine{{"pushing", "blobs", 0}}},
				{"inspect", []string{"inspect", repo + ":v1", "--plain-http", "--cache-dir", "c1"},
					[]progressLine{{"fetching", "layers", 0}}},
				{"serve", []string{"serve", repo + ":v1", "--plain-http", "--cache-dir", "c2"},
					[]progressLine{{"fetching", "layers", 0}}},
				{"pull-oci", []string{"pull", "--from", repo + ":v1", "--plain-http", "--cache-dir", "c3", "--all", "--to", "out1"},
					[]progressLine{{"fetching", "layers", 0}, {"pulling", "skills", skills}}},
				{"pull", []string{"pull", "--from", "b.skb", "--all", "--to", "out2"},
					[]progressLine{{"pulling", "skills", skills}}},
				{"build-oci", []string{"build", "--lib", "lib=" + lib, "-o", repo + ":v2", "--plain-http"},
					[]progressLine{{"building", "skills", skills}, {"pushing", "blobs", 0}}},
			} {
				stderr := runStderr(t, bin, work, mode, c.args)
				if mode == "terminal" {
					checkTerminal(t, c.name, stderr, c.want)
				} else if bytes.ContainsAny(stderr, "\r\x1b") || progressRE.Match(stderr) {
					t.Errorf("%s: progress written to a %s:\n%q", c.name, mode, stderr)
				}
			}
		})
	}
}

// progressLine is one progress line a command is expected to draw.
type progressLine struct {
	verb, unit string
	total      int
}

// progressRE is a progress line, finished or not.
var progressRE = regexp.MustCompile(`(building|pushing|fetching|pulling): (\d+)/(\d+) (skills|blobs|layers) \((\d+)%\)`)

// runStderr runs the command in dir with stderr on a pseudo-terminal, a
// pipe or a file, as mode says, and stdin empty, and returns what it wrote
// on stderr.
func runStderr(t *testing.T, bin, dir, mode string, args []string) []byte {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH=")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	var got []byte
	switch mode {
	case "terminal":
		ptm, pts := openPTY(t)
		cmd.Stderr = pts
		must(t, cmd.Start())
		pts.Close() // the child holds its own copy
		read := make(chan []byte)
		go func() {
			// Once the child has exited and its copy is closed, the
			// master's read fails (EIO) after the last byte.
			b, _ := io.ReadAll(ptm)
			read <- b
		}()
		err := cmd.Wait()
		got = <-read
		ptm.Close()
		if err != nil {
			t.Fatalf("%v: %v\nstderr:\n%s", args, err, got)
		}
	case "pipe":
		var b bytes.Buffer
		cmd.Stderr = &b // exec gives the child a pipe
		if err := cmd.Run(); err != nil {
			t.Fatalf("%v: %v\nstderr:\n%s", args, err, b.Bytes())
		}
		got = b.Bytes()
	case "file":
		f, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
		must(t, err)
		defer f.Close()
		cmd.Stderr = f
		err = cmd.Run()
		got, _ = os.ReadFile(f.Name())
		if err != nil {
			t.Fatalf("%v: %v\nstderr:\n%s", args, err, got)
		}
	}
	return got
}

// openPTY opens a pseudo-terminal: its master, and the terminal a program
// is given. Output processing is off, so that the master reads exactly the
// bytes the program wrote (no newline turned into CR LF).
func openPTY(t *testing.T) (ptm, pts *os.File) {
	t.Helper()
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	fd := int(ptm.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil { // unlockpt
		t.Fatalf("unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN) // ptsname
	if err != nil {
		t.Fatalf("name the pseudo-terminal: %v", err)
	}
	pts, err = os.OpenFile("/dev/pts/"+strconv.Itoa(int(n)), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	tio, err := unix.IoctlGetTermios(int(pts.Fd()), unix.TCGETS)
	if err != nil {
		t.Fatal(err)
	}
	tio.Oflag &^= unix.OPOST
	if err := unix.IoctlSetTermios(int(pts.Fd()), unix.TCSETS, tio); err != nil {
		t.Fatal(err)
	}
	return ptm, pts
}

// checkTerminal checks what a command wrote on a terminal: redrawn in
// place, the progress lines want names, each at least twice (drawn, then
// finished), each ending complete; and the screen a person sees holds only
// those finished lines and whole notes or logs.
func checkTerminal(t *testing.T, name string, out []byte, want []progressLine) {
	t.Helper()
	if bytes.IndexByte(out, 0x1b) >= 0 {
		t.Errorf("%s: an escape code on the terminal:\n%q", name, out)
	}
	// Every draw of the line starts with a carriage return.
	draws := map[string]int{}
	for _, m := range regexp.MustCompile(`\r`+progressRE.String()).FindAllSubmatch(out, -1) {
		draws[string(m[1])]++
	}
	var finished, bad []string
	for _, line := range screen(out) {
		m := progressRE.FindStringSubmatch(line)
		switch {
		case m != nil && m[0] == line && m[2] == m[3] && m[5] == "100":
			finished = append(finished, line)
		case strings.HasPrefix(line, "skills-mcp: ") && !progressRE.MatchString(line),
			strings.HasPrefix(line, "time=") && !progressRE.MatchString(line):
		default:
			bad = append(bad, line)
		}
	}
	if len(bad) > 0 {
		t.Errorf("%s: the terminal shows %d line(s) that are neither a finished progress line nor a whole note, first %q", name, len(bad), bad[0])
	}
	if len(finished) != len(want) {
		t.Errorf("%s: finished progress lines %q, want %d (%v)\nraw: %q", name, finished, len(want), want, out)
		return
	}
	for i, w := range want {
		m := progressRE.FindStringSubmatch(finished[i])
		if m[1] != w.verb || m[4] != w.unit || w.total != 0 && m[3] != strconv.Itoa(w.total) {
			t.Errorf("%s: progress line %q, want %s of %d %s", name, finished[i], w.verb, w.total, w.unit)
		}
		if total, _ := strconv.Atoi(m[3]); total > 1 && draws[w.verb] < 2 {
			t.Errorf("%s: %s drawn %d times, want it drawn and redrawn\nraw: %q", name, w.verb, draws[w.verb], out)
		}
	}
}

// screen is what a terminal shows for out: a carriage return moves to the
// line's start, where what follows overwrites what was there. Trailing
// blanks are dropped; the last line must be ended.
func screen(out []byte) []string {
	var lines []string
	var line []byte
	col := 0
	for _, c := range out {
		switch c {
		case '\r':
			col = 0
		case '\n':
			lines = append(lines, strings.TrimRight(string(line), " "))
			line, col = line[:0], 0
		default:
			if col < len(line) {
				line[col] = c
			} else {
				line = append(line, c)
			}
			col++
		}
	}
	if len(line) > 0 {
		lines = append(lines, string(line)+" (no newline)")
	}
	return lines
}
