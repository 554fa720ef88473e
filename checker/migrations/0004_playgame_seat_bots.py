from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("checker", "0003_playgame_match")]

    operations = [
        migrations.AlterField(
            model_name="playgame",
            name="bots",
            field=models.CharField(max_length=100),
        ),
    ]
