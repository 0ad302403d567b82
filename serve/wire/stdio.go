package wire

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxStdioLine is the longest message read over stdio: the SDK's own limit.
const maxStdioLine = mcp.DefaultMaxLineLength

// drainTimeout bounds how long the server, having read the end of its
// input, waits for the answers to the requests it read before it: a handler
// that never returns must not keep the process alive for ever.
const drainTimeout = 30 * time.Second

// NewStdio is the SDK's newline-delimited JSON transport over in and out,
// with two guarantees the SDK's stdio transport lacks (it ends the
// session on the first bad line, and drops the answers still owed when its
// input ends):
//
//   - A line that is not JSON gets a JSON-RPC parse error (-32700, id null),
//     and JSON that is not a JSON-RPC message an invalid request error
//     (-32600, with its id when it has a valid one); either way the session
//     goes on. A batch is such a message: the protocol revisions served
//     have none (see checkMessage for the other rules).
//   - At the end of the input, every request read before it is answered
//     before the session ends (within drainTimeout).
//
// It works on the byte streams, in front of the SDK's own framing, so that
// the SDK's connection is used unchanged: the
// input is checked line by line and only valid messages reach the SDK, and
// the output is watched for the answers owed.
//
// fast, if not nil, answers what it can from pre-encoded answers (see
// Answers).
func NewStdio(in io.Reader, out io.Writer, fast Answers) mcp.Transport {
	w := &Writer{w: out, owed: map[string]int{}, answered: make(chan struct{}, 1), fast: fast}
	r := &stdioReader{in: bufio.NewReaderSize(in, 64<<10), w: w, fast: fast}
	return &mcp.IOTransport{Reader: r, Writer: w}
}

// Answers is what the transport asks of the pre-encoded answers of its
// session (serve's stdioFast), given to it from above: the reader offers
// each line to Answer before the SDK reads it, with the key of its id
// (idKey, "" for none), and the writer tells Written of each message the
// SDK writes.
type Answers interface {
	Answer(line []byte, idk string, w *Writer) bool
	Written(idk string, p []byte)
}

// Writer writes whole messages to the output, one per Write, and keeps
// count of the requests read and not yet answered.
type Writer struct {
	mu       sync.Mutex
	w        io.Writer
	owed     map[string]int // request id (see idKey) → requests read with it and not answered
	nowed    int
	answered chan struct{} // signalled when an owed answer is written
	fast     Answers       // keeps the SDK's answers; nil: none
}

func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.w.Write(p)
	if err == nil && w.nowed > 0 {
		w.settle(p)
	}
	if err == nil && w.fast != nil {
		if key, ok := answerKey(p); ok {
			w.fast.Written(key, p)
		}
	}
	return n, err
}

// Owes reports whether an answer under the id idk is owed.
func (w *Writer) Owes(idk string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.owed[idk] > 0
}

// WriteRaw writes a whole message that answers no request the SDK owes.
func (w *Writer) WriteRaw(p []byte) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.w.Write(p)
}

// Close leaves the output open: the process owns it.
func (w *Writer) Close() error { return nil }

// settle marks the answer in p, one message as the SDK writes it (it writes
// a batch only for a batch, which never reaches it), as given. A response
// starts {"jsonrpc":"2.0","id":…, followed by "result" or "error", never
// "method", so only its first tokens are read.
func (w *Writer) settle(p []byte) {
	if key, ok := answerKey(p); ok {
		w.settleID(key)
		return
	}
	dec := json.NewDecoder(bytes.NewReader(p))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return
	}
	var id any
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return
		}
		switch key {
		case "method":
			return
		case "id":
			if id, err = dec.Token(); err != nil {
				return
			}
		case "result", "error":
			w.settleID(idKey(id))
			return
		default:
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return
			}
		}
	}
}

// answerKey reads the id of an answer the way the SDK writes one, starting
// {"jsonrpc":"2.0","id":ID,"result" or "error", without a decoder; ok is
// false for anything else (settle then decodes the tokens).
func answerKey(p []byte) (key string, ok bool) {
	rest, found := bytes.CutPrefix(p, []byte(AnswerHead))
	if !found {
		return "", false
	}
	end := bytes.IndexByte(rest, ',')
	if end <= 0 || !bytes.HasPrefix(rest[end:], []byte(`,"result":`)) && !bytes.HasPrefix(rest[end:], []byte(`,"error":`)) {
		return "", false
	}
	id := rest[:end]
	if id[0] == '"' {
		var s string
		if bytes.IndexByte(id, '\\') >= 0 || json.Unmarshal(id, &s) != nil {
			return "", false
		}
		return strconv.Quote(s), true
	}
	if _, err := strconv.ParseInt(string(id), 10, 64); err != nil {
		return "", false
	}
	return string(id), true
}

func (w *Writer) settleID(key string) {
	if key == "" || w.owed[key] == 0 {
		return
	}
	if w.owed[key]--; w.owed[key] == 0 {
		delete(w.owed, key)
	}
	w.nowed--
	select {
	case w.answered <- struct{}{}:
	default:
	}
}

// owe records a request read, whose answer is owed.
func (w *Writer) owe(key string) {
	w.mu.Lock()
	w.owed[key]++
	w.nowed++
	w.mu.Unlock()
}

// drain waits until every owed answer is written, or drainTimeout.
func (w *Writer) drain() {
	timeout := time.NewTimer(drainTimeout)
	defer timeout.Stop()
	for {
		w.mu.Lock()
		n := w.nowed
		w.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-w.answered:
		case <-timeout.C:
			return
		}
	}
}

// reply writes an error response of its own: the SDK never sees the
// message it answers.
func (w *Writer) reply(id any, code int64, msg string) {
	data, err := json.Marshal(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      any    `json:"id"`
		Error   any    `json:"error"`
	}{"2.0", id, &jsonrpc.Error{Code: code, Message: msg}})
	if err != nil {
		return
	}
	w.Write(append(data, '\n'))
}

// idKey is a request id as a map key: a number by its decimal digits, a
// string quoted; "" for anything else.
func idKey(id any) string {
	switch v := id.(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case json.Number:
		return v.String()
	case string:
		return strconv.Quote(v)
	}
	return ""
}

// stdioReader passes the valid messages of its input on to the SDK, a line
// at a time, and answers the others itself (see NewStdio).
type stdioReader struct {
	in      *bufio.Reader
	w       *Writer
	line    []byte  // the rest of the line being passed on
	err     error   // the input's error, returned once the line is passed on
	drained bool    // the owed answers were waited for, after err
	fast    Answers // answers what it can from the kept answers; nil: none
}

func (r *stdioReader) Read(p []byte) (int, error) {
	for len(r.line) == 0 {
		if r.err != nil {
			if !r.drained {
				r.w.drain()
				r.drained = true
			}
			return 0, r.err
		}
		r.next()
	}
	n := copy(p, r.line)
	r.line = r.line[n:]
	return n, nil
}

// Close leaves the input open: the process owns it.
func (r *stdioReader) Close() error { return nil }

// next reads the next line and sets r.line to it if it is a message the SDK
// can take, or sets r.err at the end of the input.
func (r *stdioReader) next() {
	line, err := r.readLine()
	if errors.Is(err, errLineTooLong) {
		r.w.reply(nil, jsonrpc.CodeParseError, err.Error())
		return
	}
	if err != nil {
		r.err = err // a last line without its newline is still read
	}
	line = bytes.TrimSpace(line)
	if len(line) == 0 {
		return
	}
	if line[0] == '[' {
		if !json.Valid(line) {
			r.w.reply(nil, jsonrpc.CodeParseError, errNotJSON.Error())
			return
		}
		r.w.reply(nil, jsonrpc.CodeInvalidRequest, errBatch.Error())
		return
	}
	owed, id, code, err := checkMessage(line)
	if err != nil {
		r.w.reply(id, code, err.Error())
		return
	}
	if r.fast != nil && r.fast.Answer(line, owed, r.w) {
		return
	}
	if owed != "" {
		r.w.owe(owed)
	}
	r.line = append(line, '\n')
}

// checkMessage applies the rules for one JSON-RPC message and returns the
// key of the answer owed (see idKey), "" for none. On error it returns the
// message's id, if it has a valid one, and the error code. The rules are
// the SDK's own (those of jsonrpc.DecodeMessage, which the SDK's connection
// ends the session on), and three it lacks, under which the SDK would answer
// another id than the one asked or none at all:
//
//   - an id is a string, null, or an integer written without a fraction or
//     an exponent, at most maxExactID in magnitude (the SDK reads ids as
//     float64 and answers 7.5 as 7, 9223372036854775808 as its negative);
//   - a message without a method is a response, with a "result" or an
//     "error" (the SDK drops {"jsonrpc":"2.0","id":5} silently);
//   - a batch is refused before it gets here (see stdioReader.next).
//
// DecodeMessage itself allocates some 64 KiB a message, so it is used only
// for what the rules below do not settle alike: text that is not ASCII, and
// responses.
func checkMessage(line []byte) (owed string, id any, code int64, err error) {
	if q, ok := Recognise(line); ok { // a request the rules below take, read in a fraction of the time
		return string(q.ID), nil, 0, nil
	}
	return checkMessageFull(line)
}

// checkMessageFull is checkMessage without the recogniser's shortcut.
func checkMessageFull(line []byte) (owed string, id any, code int64, err error) {
	for _, c := range line {
		if c >= 0x80 {
			if !json.Valid(line) { // DecodeMessage allows what follows the value; the SDK's reader does not
				return "", nil, jsonrpc.CodeParseError, errNotJSON
			}
			if _, err := jsonrpc.DecodeMessage(line); err != nil {
				return "", refusedID(line), jsonrpc.CodeInvalidRequest, fmt.Errorf("invalid request: %v", err)
			}
			break
		}
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return "", nil, jsonrpc.CodeParseError, errNotJSON
		}
		return "", nil, jsonrpc.CodeInvalidRequest, errors.New("invalid request: not a JSON object")
	}
	rawID, hasID := m["id"]
	var idErr error
	if hasID {
		id, owed, idErr = requestID(rawID)
	}
	invalid := func(format string, args ...any) (string, any, int64, error) {
		return "", id, jsonrpc.CodeInvalidRequest, fmt.Errorf("invalid request: "+format, args...)
	}
	if v := m["jsonrpc"]; string(v) != `"2.0"` && !isString(v, "2.0") {
		return invalid(`"jsonrpc" must be "2.0"`)
	}
	if idErr != nil {
		return "", nil, jsonrpc.CodeInvalidRequest, fmt.Errorf("invalid request: %w", idErr)
	}
	if method, ok := m["method"]; ok {
		var name *string
		if err := json.Unmarshal(method, &name); err != nil {
			return invalid("the method must be a string")
		}
		return owed, id, 0, nil
	}
	_, result := m["result"]
	_, rpcErr := m["error"]
	if !result && !rpcErr {
		return invalid(`a request needs a "method"`)
	}
	// A response, to a request of the server's: rare, so the SDK's decoder
	// settles it.
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return invalid("%v", err)
	}
	return "", nil, 0, nil
}

// maxExactID is the largest integer id taken: 2^53-1, the largest every
// JSON peer (and the SDK, which reads ids as float64) holds exactly.
const maxExactID = 1<<53 - 1

// requestID checks a message's id, valid JSON (see checkMessage), and
// returns it as it is answered (nil, a string or an int64) with its key
// (see idKey).
func requestID(raw json.RawMessage) (id any, key string, err error) {
	switch {
	case string(raw) == "null":
		return nil, "", nil
	case raw[0] == '"':
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil, "", errBadID
		}
		return s, strconv.Quote(s), nil
	}
	// JSON has no leading zeros or "+", so only a fraction or an exponent
	// (or a value that is no number) is refused here beyond the range.
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || n > maxExactID || n < -maxExactID {
		return nil, "", errBadID
	}
	return n, strconv.FormatInt(n, 10), nil
}

var (
	errNotJSON       = errors.New("parse error: the line is not valid JSON")
	errBadID   error = boundError{"the id must be a string or an integer from -%[1]d to %[1]d", maxExactID}
	errBatch         = errors.New("invalid request: a batch (the protocol revisions served have none): send one message a line")
)

// isString reports whether raw is a JSON string equal to s.
func isString(raw json.RawMessage, s string) bool {
	var v string
	return json.Unmarshal(raw, &v) == nil && v == s
}

// refusedID returns the id of a message that is refused, for the error
// answer: its id if that is valid (see requestID), or nil.
func refusedID(line []byte) any {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &probe) != nil || probe.ID == nil {
		return nil
	}
	id, _, err := requestID(probe.ID)
	if err != nil {
		return nil
	}
	return id
}

// errLineTooLong is a line longer than maxStdioLine.
var errLineTooLong error = boundError{"parse error: a line longer than %d bytes", maxStdioLine}

// boundError is an error that tells a bound n by format: a value, not an
// error made at package initialisation.
type boundError struct {
	format string
	n      int64
}

func (e boundError) Error() string { return fmt.Sprintf(e.format, e.n) }

// readLine returns the next line without its newline. A line longer than
// maxStdioLine is read to its end and dropped, with errLineTooLong.
func (r *stdioReader) readLine() ([]byte, error) {
	var long []byte
	tooLong := false
	for {
		frag, err := r.in.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if !tooLong {
				if len(long)+len(frag) > maxStdioLine {
					tooLong, long = true, nil
				} else {
					long = append(long, frag...)
				}
			}
			continue
		}
		if tooLong {
			return nil, errLineTooLong // an error at the end is met again on the next read
		}
		if long != nil {
			frag = append(long, frag...)
		} else {
			frag = bytes.Clone(frag)
		}
		return bytes.TrimSuffix(frag, []byte("\n")), err
	}
}

// CheckMessage applies the rules stdio answers a line by (checkMessage) to
// one JSON-RPC message that came another way, an HTTP request's body: nil
// if the SDK may take it, else the error to answer with and the id to
// answer under (nil for null), so that no transport answers a request
// under another id than the one it was sent with, or drops it.
func CheckMessage(msg []byte) (id any, err *jsonrpc.Error) {
	if _, id, code, e := checkMessage(msg); e != nil {
		return id, &jsonrpc.Error{Code: code, Message: e.Error()}
	}
	return nil, nil
}
