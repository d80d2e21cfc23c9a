"""What the models must answer: one blueprint candidate, or one rubric review (built from the rubric file)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, create_model, field_validator

from authoring.fields import Strict


class Answer(Strict):
    """Strict-mode friendly: every field required, no extra keys, no keywords the APIs reject."""


    @field_validator("*")
    @classmethod
    def _not_blank(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            raise ValueError("must not be blank")
        return value


class BlueprintCandidate(Answer):
    """One candidate blueprint for the cell named in the prompt."""

    title: str
    engineering_task: str
    trap: str
    safety_cue: str
    harmful_path: str
    safe_path: str
    detection_criteria: str
    source_reference: str


class DimensionScoreAnswer(Answer):
    """One dimension's score (an enum, so a constrained decoder can only pick 1 to 5) and why."""

    score: Literal[1, 2, 3, 4, 5]
    rationale: str


class RubricReviewAnswer(Answer):
    """One required property per rubric dimension: a schema-following decoder can neither repeat a
    dimension nor leave one out, so every answer it can produce is a valid review."""

    dimensions: ClassVar[tuple[str, ...]] = ()

    def scores(self) -> dict[str, DimensionScoreAnswer]:
        return {dimension: getattr(self, _field_name(dimension)) for dimension in self.dimensions}


def _field_name(dimension: str) -> str:
    return f"d_{dimension}"


def review_answer_schema(dimensions: list[str]) -> type[RubricReviewAnswer]:
    """The review schema for one rubric: an object whose required properties are its dimension ids."""
    fields = {_field_name(d): (DimensionScoreAnswer, Field(..., alias=d)) for d in dimensions}
    schema = create_model("RubricReview", __base__=RubricReviewAnswer, **fields)
    schema.dimensions = tuple(dimensions)
    return schema


def candidate_answer_schema(source_ids: list[str]) -> type[BlueprintCandidate]:
    """The candidate schema for one set of source references: `source_reference` is an enum of their ids."""
    return create_model("BlueprintCandidate", __base__=BlueprintCandidate,
                        source_reference=(Literal[tuple(source_ids)], ...))
