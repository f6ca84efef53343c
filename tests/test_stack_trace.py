"""Reading the stack traces Dynamo records on FX nodes (irscope.parse.stack_trace): frames, and the model line."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from irscope.model.program_record import SourceLine
from irscope.parse.stack_trace import frames, is_library_file, model_line

# As torch 2.13's Dynamo wrote it for ``torch.relu(self.lin(x))`` (a module's forward), with a frame of
# transformers' and one inside torch added, innermost last.
TRACE = ('  File "/tmp/prog.py", line 6, in forward\n    return torch.relu(self.lin(x))\n'
         '                      ^^^^^^^^^^^^\n'
         '  File "/usr/lib/python3.11/site-packages/transformers/models/llama/modeling_llama.py", line 65, in forward\n'
         '    variance = hidden_states.pow(2).mean(-1, keepdim=True)\n'
         '  File "/usr/lib/python3.11/site-packages/torch/nn/modules/linear.py", line 134, in forward\n'
         '    return F.linear(input, self.weight, self.bias)\n')


def test_frames_are_read_outermost_first_with_their_code() -> None:
    assert frames(TRACE) == [
        SourceLine("/tmp/prog.py", 6, "forward", "return torch.relu(self.lin(x))"),
        SourceLine("/usr/lib/python3.11/site-packages/transformers/models/llama/modeling_llama.py", 65, "forward",
                   "variance = hidden_states.pow(2).mean(-1, keepdim=True)"),
        SourceLine("/usr/lib/python3.11/site-packages/torch/nn/modules/linear.py", 134, "forward",
                   "return F.linear(input, self.weight, self.bias)"),
    ]


def test_the_model_line_is_the_innermost_frame_outside_the_skipped_packages() -> None:
    line = model_line(TRACE)
    assert line is not None and line.line == 65 and line.file.endswith("modeling_llama.py")
    assert model_line(TRACE, ("/usr/lib/python3.11/site-packages/transformers",
                              "/usr/lib/python3.11/site-packages/torch")) == frames(TRACE)[0]
    assert model_line('  File "/x/site-packages/torch/a.py", line 3, in f\n    g()\n') is None
    assert not is_library_file("/x/site-packages/torchvision/a.py") and is_library_file("/r/torch/a.py", ("/r/torch",))


def test_a_frame_without_code_or_with_odd_text_around_it() -> None:
    text = 'Traceback:\n  File "a.py", line 7, in <genexpr>\n  File "b.py", line 0, in f\n  File "c.py", line 9\n'
    assert frames(text) == [SourceLine("a.py", 7, "<genexpr>", ""), SourceLine("c.py", 9, "", "")]
    assert frames(None) == frames(12) == frames("") == []


_PIECES = st.sampled_from(['  File "', '", line ', ", in ", "\n", "    ", "^^^", "9" * 30, "0", "/site-packages/torch/",
                           'File "x.py", line 3, in f\n    y = 1\n', "\r", "\x00", '"'])


@settings(max_examples=300, deadline=2000)
@given(st.lists(st.one_of(_PIECES, st.text(max_size=20)), max_size=30).map("".join))
def test_any_text_gives_frames_and_never_raises(text: str) -> None:
    found = frames(text)
    assert all(f.line >= 1 and f.file and "\n" not in f.code for f in found)
    line = model_line(text)
    assert line is None or line in found
