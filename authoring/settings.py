"""Everything v3ast reads from its environment, in one object: model endpoints, keys and paths (`V3AST_*`, plus
the providers' own `OPENAI_API_KEY` / `ANTHROPIC_API_KEY`, git's committer identity, `XDG_CACHE_HOME` and Ray's
`RAY_ADDRESS`); and the one description of a model endpoint every stage reaches its model through."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal, Self

from pydantic import AliasChoices, Field, PositiveFloat, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from authoring.errors import BadInput
from authoring.fields import Strict

BaseSource = Literal["auto", "pull", "debootstrap"]
EndpointProvider = Literal["openai", "anthropic", "hosted_vllm"]
VENDOR_KEYS = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
"""The variable each wire format's vendor SDK reads its key from."""
AGENT_ENVIRONMENT = {
    "MSWEA_SILENT_STARTUP": "1",
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "MSWEA_MODEL_RETRY_STOP_AFTER_ATTEMPT": "100",
}
"""mini-swe-agent's and LiteLLM's own switches: no start-up banner, the bundled price map (no download), and a
retry cap above any `attempts` a model is built with (each model counts its own, `authoring/agent_model.py`)."""


class Settings(BaseSettings):
    """One read of the environment; every field is `V3AST_<FIELD>` unless it names its own variable."""

    model_config = SettingsConfigDict(env_prefix="V3AST_", env_ignore_empty=True, extra="ignore", frozen=True)

    root: Path | None = None
    """The project folder (blueprints/, generated_tasks/, runs/ …); unset: the working directory."""
    debug: bool = False
    """Show a traceback for every error, expected ones too."""
    stage1_provider: str = "openai"
    """Stage I's default model provider: openai, anthropic or demo."""
    stage1_timeout: PositiveFloat | None = None
    """Seconds Stage I waits for one answer before it retries; unset: its default (`ProviderConfig`)."""
    stage2_provider: str = "openai"
    """Stage II's default wire format: openai, anthropic or demo (a scripted agent)."""
    model_base_url: str | None = None
    """The model endpoint every stage uses unless told otherwise (vLLM, a router, a vendor's API)."""
    model: str | None = None
    """The model's name at that endpoint; unset: each stage's default."""
    model_api_key: SecretStr | None = None
    """The endpoint's key; before the vendor's own variable. Never written anywhere."""
    openai_api_key: SecretStr | None = Field(None, validation_alias="OPENAI_API_KEY")
    anthropic_api_key: SecretStr | None = Field(None, validation_alias="ANTHROPIC_API_KEY")
    debian_mirror: str | None = None
    """The apt mirror the base image is built from; unset: the one this host's apt uses."""
    base_source: BaseSource = "auto"
    """How the base image is made when missing: pull debian:bookworm-slim, debootstrap it, or try both."""
    committer_name: str = Field("", validation_alias=AliasChoices("GIT_COMMITTER_NAME"))
    committer_email: str = Field("", validation_alias=AliasChoices("GIT_COMMITTER_EMAIL"))
    harness_cache: Path | None = None
    """Where the harnesses' npm packages are installed; unset: `harnesses/` in the user cache."""
    cache_dir: Path | None = None
    """Where the reviewer app keeps its row cache; unset: the user cache."""
    base_image: str | None = None
    """The base image an exported task's compose file builds on (Harbor and Inspect runs of exported tasks)."""
    xdg_cache_home: Path | None = Field(None, validation_alias="XDG_CACHE_HOME")
    ray_address: str | None = Field(None, validation_alias="RAY_ADDRESS")
    """The Ray cluster `--executor ray` joins; unset: a local one started for the run."""

    @property
    def project_root(self) -> Path:
        return (self.root or Path.cwd()).resolve()

    @property
    def user_cache(self) -> Path:
        """`$XDG_CACHE_HOME/v3ast`, else `~/.cache/v3ast`."""
        return (self.xdg_cache_home or Path.home() / ".cache") / "v3ast"

    @property
    def harness_cache_root(self) -> Path:
        return (self.harness_cache or self.user_cache / "harnesses").resolve()

    @property
    def tui_cache(self) -> Path:
        return self.cache_dir or self.user_cache

    def vendor_key(self, wire: str) -> str:
        """The key in the wire format's vendor variable (OPENAI_API_KEY / ANTHROPIC_API_KEY), or ''."""
        key = {"openai": self.openai_api_key, "anthropic": self.anthropic_api_key}.get(wire)
        return key.get_secret_value() if key else ""

    def endpoint_key(self) -> str:
        """V3AST_MODEL_API_KEY, or ''."""
        return self.model_api_key.get_secret_value() if self.model_api_key else ""

    def api_key(self, wire: str) -> str:
        """V3AST_MODEL_API_KEY, else the wire format's vendor variable; '' when neither is set."""
        return self.endpoint_key() or self.vendor_key(wire)


def settings() -> Settings:
    """The environment as it is now (tests change it between calls); a bad value is one line naming it."""
    try:
        return Settings()
    except ValidationError as error:
        problem = error.errors()[0]
        field = "_".join(str(part) for part in problem["loc"])
        name = field if field.isupper() else f"V3AST_{field.upper()}"
        raise BadInput(f"{name}: {problem['msg']}") from None


class ModelEndpoint(Strict):
    """A model endpoint as every stage reaches it: Stage I's providers (`ProviderConfig`), the Stage II agent
    (`ModelSettings`) and the calibration harnesses (`HarnessConfig`) add only their own call settings. The key is
    never written to a record, log or report."""

    provider: EndpointProvider = "openai"
    """The API the endpoint speaks, as LiteLLM names it: openai (Chat Completions: OpenAI's or any compatible
    server's), hosted_vllm (a vLLM server: the same wire, LiteLLM's vLLM handling) or anthropic (Messages)."""
    model: str | None = None
    """The model's name at the endpoint; None: the stage's default."""
    base_url: str | None = None
    """The endpoint (OpenAI-compatible ones end in /v1); None: the vendor's API, or none configured."""
    api_key: SecretStr | None = None
    """None: $V3AST_MODEL_API_KEY, else the vendor's variable for openai/anthropic (see `key`)."""
    request_timeout: float = 600.0
    """Seconds before one model request fails."""

    @property
    def wire(self) -> Literal["openai", "anthropic"]:
        return "anthropic" if self.provider == "anthropic" else "openai"

    def key(self) -> str:
        """The key given, else V3AST_MODEL_API_KEY, else OPENAI_API_KEY / ANTHROPIC_API_KEY for those providers
        (a vLLM server gets no vendor's key); '' when none is set."""
        given = self.api_key.get_secret_value() if self.api_key else ""
        environment = settings()
        return given or environment.endpoint_key() or environment.vendor_key(self.provider)

    def public(self) -> dict[str, Any]:
        """The settings as written to records: everything but the key."""
        return self.model_dump(mode="json", exclude={"api_key"})

    @classmethod
    def reaching(cls, endpoint: ModelEndpoint, **own: Any) -> Self:
        """This stage's settings for an endpoint another stage already reaches: its provider, model, URL, key and
        timeout carried over whole, the stage's own settings from `own` or their defaults."""
        return cls(**{name: getattr(endpoint, name) for name in ModelEndpoint.model_fields}, **own)

    @classmethod
    def configured(cls, **given: Any) -> Self:
        """The options given (None: not given) over V3AST_MODEL_BASE_URL and V3AST_MODEL, then the defaults."""
        environment = settings()
        values = {"base_url": environment.model_base_url, "model": environment.model}
        values |= {name: value for name, value in given.items() if value is not None}
        return cls(**{name: value for name, value in values.items() if value is not None})


def prepare_agent_environment() -> None:
    """Set mini-swe-agent's and LiteLLM's switches unless already set; called once at start-up (the CLI, the
    tests' conftest) before either package is imported. Calling it again changes nothing."""
    for name, value in AGENT_ENVIRONMENT.items():
        os.environ.setdefault(name, value)
