"""A run on the Hub: the adapter with a model card, and the rollouts as a dataset, at every save.

With `--push-to-hub` and `--hub_model_id you/watercolour-grpo` (the seed's `--out`), each
checkpoint save and the end of training upload:
    you/watercolour-grpo             (model)    the adapter (adapter_config.json,
                                                adapter_model.safetensors) and README.md, a model
                                                card saying how to load it and what it was trained
                                                against (environment, pool, reward weights, run)
    you/watercolour-grpo-rollouts    (dataset)  data/rollouts.jsonl, paintings/*.png, README.md

`--hub-dry-run DIR` writes exactly those files to DIR/<repo id>/ instead, with `uploads.json`
listing every upload (repo, type, path, bytes, sha256), so a run can be checked where the Hub is
not reachable; `load_dry_run` reads it back. This replaces the Trainer's own push (it would
upload the checkpoint folders, not the rollouts).
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
import tempfile
from pathlib import Path
from typing import Any

from transformers import TrainerCallback

log = logging.getLogger(__name__)

CARD = """---
base_model: {base_model}
library_name: peft
tags: [trl, grpo, watercolour, p5.brush]
---

# {repo_id}

A LoRA adapter for `{base_model}` trained with GRPO (TRL) to paint watercolours by writing p5.js
sketches that use p5.brush, against the watercolour environment.

## Load it

```python
from peft import PeftModel
from transformers import AutoModelForCausalLM, AutoTokenizer

model = PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained("{base_model}"), "{repo_id}")
tokenizer = AutoTokenizer.from_pretrained("{base_model}")
```

Prompts come from the environment's `reset` (its system prompt and the subject); send a reply to
its `step` to have it rendered and scored.

## Trained against

- environment: {environments}
- reference pool: {pool_source} at revision {pool_revision}
- reward weights: {weights}
- run: {run_name}, {step} optimiser steps of {num_generations} generations a group
- rollouts: [{dataset_id}](https://huggingface.co/datasets/{dataset_id})
"""

DATASET_CARD = """---
configs:
- config_name: default
  data_files: data/rollouts.jsonl
tags: [watercolour, grpo, rollouts]
---

# {dataset_id}

Every rollout of the run that trained [{repo_id}](https://huggingface.co/{repo_id}): step,
group, position, seed, prompt subject, completion, sketch, reward (null when the infrastructure
could not score it), components, statuses, violations, render time, and the painting
(`paintings/<image>`).
"""


class HubPublisher(TrainerCallback):
    """Uploads the adapter and the rollouts at each save and at the end (or writes them, dry).

    Args:
        repo_id: the model repo (`--hub_model_id`, the seed's `--out`); the rollouts go to
            `<repo_id>-rollouts` as a dataset.
        rollouts_dir: the run's rollouts folder.
        about: what the model card states: base_model, environments, pool_source, pool_revision,
            weights, run_name, num_generations.
        dry_run: a folder to write the uploads to instead of the Hub; None uploads.
        token: a Hub token; None uses the logged-in one (`HF_TOKEN`).
    """

    def __init__(
        self, repo_id: str, rollouts_dir: Path, about: dict[str, Any], dry_run: Path | None = None, token=None
    ) -> None:  # noqa: ANN001
        self.repo_id, self.dataset_id = repo_id, f"{repo_id}-rollouts"
        self.rollouts_dir, self.about, self.dry_run, self.token = Path(rollouts_dir), about, dry_run, token

    def on_save(self, args, state, control, model=None, **kwargs):  # noqa: ANN001, ANN003, ANN201, ARG002
        """Publishes at every checkpoint save (`--save_steps`)."""
        self.publish(model, state.global_step)

    def on_train_end(self, args, state, control, model=None, **kwargs):  # noqa: ANN001, ANN003, ANN201, ARG002
        """Publishes the finished run."""
        self.publish(model, state.global_step)

    def publish(self, model, step: int) -> None:  # noqa: ANN001
        """Stages and uploads (or writes) the model repo and the dataset repo as of `step`."""
        with tempfile.TemporaryDirectory() as tmp:
            model_dir, data_dir = Path(tmp) / "model", Path(tmp) / "dataset"
            model.save_pretrained(model_dir)  # a PeftModel saves the adapter alone
            (model_dir / "README.md").write_text(
                CARD.format(repo_id=self.repo_id, dataset_id=self.dataset_id, step=step, **self.about)
            )
            (data_dir / "data").mkdir(parents=True)
            shutil.copy(self.rollouts_dir / "rollouts.jsonl", data_dir / "data" / "rollouts.jsonl")
            if (self.rollouts_dir / "paintings").is_dir():
                shutil.copytree(self.rollouts_dir / "paintings", data_dir / "paintings")
            (data_dir / "README.md").write_text(DATASET_CARD.format(repo_id=self.repo_id, dataset_id=self.dataset_id))
            if self.dry_run is None:
                self._upload(model_dir, data_dir, step)
            else:
                self._write(model_dir, data_dir)
        log.info(
            "step %d: adapter and rollouts %s %s and %s",
            step,
            "written for" if self.dry_run else "pushed to",
            self.repo_id,
            self.dataset_id,
        )

    def _upload(self, model_dir: Path, data_dir: Path, step: int) -> None:
        from huggingface_hub import HfApi

        api = HfApi(token=self.token)
        for repo_id, repo_type, folder in ((self.repo_id, "model", model_dir), (self.dataset_id, "dataset", data_dir)):
            api.create_repo(repo_id, repo_type=repo_type, exist_ok=True)
            api.upload_folder(repo_id=repo_id, repo_type=repo_type, folder_path=folder, commit_message=f"step {step}")

    def _write(self, model_dir: Path, data_dir: Path) -> None:
        uploads = []
        for repo_id, repo_type, folder in ((self.repo_id, "model", model_dir), (self.dataset_id, "dataset", data_dir)):
            target = self.dry_run / repo_id
            shutil.rmtree(target, ignore_errors=True)  # a repo's state after the upload: what the folder holds
            shutil.copytree(folder, target)
            for path in sorted(p for p in target.rglob("*") if p.is_file()):
                data = path.read_bytes()
                uploads.append(
                    {
                        "repo_id": repo_id,
                        "repo_type": repo_type,
                        "path_in_repo": path.relative_to(target).as_posix(),
                        "bytes": len(data),
                        "sha256": hashlib.sha256(data).hexdigest(),
                    }
                )
        (self.dry_run / "uploads.json").write_text(json.dumps(uploads, indent=1))


def load_dry_run(folder: Path, repo_id: str):  # noqa: ANN201 (a Dataset, the card text, the adapter folder)
    """Reads a dry run back as the Hub would serve it: (rollouts dataset, model card, adapter folder).

    Raises:
        FileNotFoundError: the folder holds no dry run of `repo_id`.
    """
    from datasets import load_dataset

    model_dir, data_dir = Path(folder) / repo_id, Path(folder) / f"{repo_id}-rollouts"
    rollouts = load_dataset("json", data_files=str(data_dir / "data" / "rollouts.jsonl"), split="train")
    return rollouts, (model_dir / "README.md").read_text(), model_dir
