"""Sample a policy's replies to one prompt, with and without an adapter, on whatever device there is.

    python bench/sample_replies.py --model PATH.gguf --adapter DIR --messages prompt.json --out replies.json

The sampling half of `bench/sft_gate_pass.py`, importing nothing that needs the environment
(no tree-sitter, no Chromium), so it runs on a GPU machine that cannot render; `sft_gate_pass.py
--replies replies.json` gates the replies where Chromium is. Seeds: batch b samples with
`torch.manual_seed(b * batch)`, as `sft_gate_pass.sample` does.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import torch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True, help="A .gguf file, a model folder, or the embedded policy.")
    parser.add_argument("--adapter", required=True)
    parser.add_argument("--messages", required=True, help="JSON list of chat messages (system, user).")
    parser.add_argument("--samples", type=int, default=64)
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--temperature", type=float, default=1.0)
    parser.add_argument("--top-p", type=float, default=1.0)
    parser.add_argument("--top-k", type=int, default=0, help="0: no top-k cut.")
    parser.add_argument("--max-new-tokens", type=int, default=1600)
    parser.add_argument("--only", choices=("base", "sft"), help="Sample one policy, not both.")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()

    from peft import PeftModel

    from watercolour_trainer.training.policy import load_policy

    device = "cuda" if torch.cuda.is_available() else "cpu"
    messages = json.loads(Path(args.messages).read_text())
    results = {"device": torch.cuda.get_device_name(0) if device == "cuda" else "cpu", "args": vars(args)}
    for name in (args.only,) if args.only else ("base", "sft"):
        model, tokenizer = load_policy(args.model)
        if name == "sft":
            model = PeftModel.from_pretrained(model, args.adapter).merge_and_unload()
        model.to(device).eval()
        prompt = tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
        encoded = tokenizer([prompt] * args.batch, return_tensors="pt", add_special_tokens=False).to(device)
        replies, started = [], time.perf_counter()
        for start in range(0, args.samples, args.batch):
            torch.manual_seed(start)
            size = min(args.batch, args.samples - start)
            sampling = dict(
                do_sample=True,
                temperature=args.temperature,
                top_p=args.top_p,
                top_k=args.top_k,
                max_new_tokens=args.max_new_tokens,
                pad_token_id=tokenizer.pad_token_id,
            )
            with torch.no_grad():
                out = model.generate(
                    input_ids=encoded["input_ids"][:size], attention_mask=encoded["attention_mask"][:size], **sampling
                )
            for row in out[:, encoded["input_ids"].shape[1] :].tolist():
                ids = [t for t in row if t != tokenizer.pad_token_id]
                replies.append({"reply": tokenizer.decode(ids, skip_special_tokens=True), "tokens": len(ids)})
        results[name] = {"seconds": round(time.perf_counter() - started, 1), "replies": replies}
        print(f"{name}: {len(replies)} replies in {results[name]['seconds']} s", flush=True)
    Path(args.out).write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
