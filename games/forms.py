from django import forms
from django.utils.translation import gettext_lazy as _

from .models import GameNight


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Club name"), max_length=100)


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Player name"), max_length=60)


class GameNightForm(forms.ModelForm):
    class Meta:
        model = GameNight
        fields = ["date", "place", "notes"]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}),
            "notes": forms.Textarea(attrs={"rows": 3}),
        }
