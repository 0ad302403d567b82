//go:build unix

package promtext

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// registerProcess registers process_* where the system tells them: CPU
// time and the descriptor limit everywhere on unix; memory, open
// descriptors and the start time from /proc on Linux.
func registerProcess(r *Registry) {
	gauge := func(name, help string, f func() (float64, bool)) {
		r.NewGaugeFunc(name, help, nil, func(emit func(float64, ...string)) {
			if v, ok := f(); ok {
				emit(v)
			}
		})
	}
	r.NewCounterFunc("process_cpu_seconds_total", "Total user and system CPU time spent in seconds.", nil, func(emit func(float64, ...string)) {
		var ru syscall.Rusage
		if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
			emit(tv(ru.Utime) + tv(ru.Stime))
		}
	})
	gauge("process_max_fds", "Maximum number of open file descriptors.", func() (float64, bool) {
		var rl syscall.Rlimit
		if syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl) != nil {
			return 0, false
		}
		return float64(rl.Cur), true
	})
	if _, err := os.Stat("/proc/self/statm"); err != nil {
		return
	}
	page := float64(os.Getpagesize())
	statm := func(field int) (float64, bool) {
		b, err := os.ReadFile("/proc/self/statm")
		f := bytes.Fields(b)
		if err != nil || len(f) <= field {
			return 0, false
		}
		n, err := strconv.ParseFloat(string(f[field]), 64)
		return n * page, err == nil
	}
	gauge("process_resident_memory_bytes", "Resident memory size in bytes.", func() (float64, bool) { return statm(1) })
	gauge("process_virtual_memory_bytes", "Virtual memory size in bytes.", func() (float64, bool) { return statm(0) })
	gauge("process_open_fds", "Number of open file descriptors.", func() (float64, bool) {
		d, err := os.ReadDir("/proc/self/fd")
		return float64(len(d)), err == nil
	})
	if start, ok := startTime(); ok {
		gauge("process_start_time_seconds", "Start time of the process since unix epoch in seconds.", func() (float64, bool) { return start, true })
	}
}

func tv(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }

// startTime is the process's start from /proc: the boot time (btime of
// /proc/stat) plus field 22 of /proc/self/stat, in clock ticks of 1/100 s
// (USER_HZ, 100 on every Linux architecture Go supports).
func startTime() (float64, bool) {
	st, err1 := os.ReadFile("/proc/self/stat")
	sys, err2 := os.ReadFile("/proc/stat")
	if err1 != nil || err2 != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(st, ')') // the command name may hold spaces
	if i < 0 {
		return 0, false
	}
	f := bytes.Fields(st[i+1:]) // from field 3, the state
	if len(f) < 20 {
		return 0, false
	}
	ticks, err := strconv.ParseFloat(string(f[19]), 64)
	if err != nil {
		return 0, false
	}
	for line := range bytes.SplitSeq(sys, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte("btime ")); ok {
			boot, err := strconv.ParseFloat(string(bytes.TrimSpace(rest)), 64)
			if err != nil {
				return 0, false
			}
			return boot + ticks/100, true
		}
	}
	return 0, false
}
