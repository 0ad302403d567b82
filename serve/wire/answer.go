package wire

// The bytes of a pre-encoded answer: the SDK's answer with the request's
// id cut out (Tail), and put back around another id (Append).

// AnswerHead is how every answer the SDK writes starts, before its id.
const AnswerHead = `{"jsonrpc":"2.0","id":`

// Tail returns the part of an answer the SDK wrote after the id, if the
// answer is a result under exactly id: nil for anything else (an error, or
// an id written otherwise), which is not kept.
func Tail(answer, id []byte) []byte {
	if len(answer) < len(AnswerHead)+len(id) || string(answer[:len(AnswerHead)]) != AnswerHead {
		return nil
	}
	rest := answer[len(AnswerHead):]
	if string(rest[:len(id)]) != string(id) {
		return nil
	}
	tail := rest[len(id):]
	const result = `,"result":`
	if len(tail) < len(result) || string(tail[:len(result)]) != result {
		return nil
	}
	return tail
}

// Append appends the kept answer tail under id.
func Append(dst, id, tail []byte) []byte {
	dst = append(dst, AnswerHead...)
	dst = append(dst, id...)
	return append(dst, tail...)
}
